/**
 * The application's thread endpoints over HTTP (EP-2, EP-7 to EP-12): mounted beneath their thread
 * after the runtime's own thread routes, each request bounded and checked, each endpoint an operation
 * of the OpenAPI document.
 */
export { mountThreadEndpoints } from './thread-endpoints.js';
