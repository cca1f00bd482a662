/**
 * Files on a user's message (MSG-1 to MSG-7): JSON parts and multipart bodies read as they arrive,
 * each file checked against the limits and its claimed type and streamed to R2 under `/attachments/`,
 * then the message stored with them, or nothing at all.
 */
export { acceptMessageWithFiles } from './message-intake.js';
export { MultipartError, type MultipartPart, multipartBoundary, readMultipart } from './multipart-reader.js';
