/**
 * Files on a user's message (MSG-1 to MSG-7): multipart bodies read as they arrive.
 */
export { MultipartError, type MultipartPart, multipartBoundary, readMultipart } from './multipart-reader.js';
