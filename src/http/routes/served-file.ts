/**
 * How a thread file goes back out over HTTP (ATT-5). Its bytes are anyone's: a model, a tool, an MCP
 * server or an upload wrote them, and the type it was stored with is the writer's word, so a file is
 * never allowed to run script on this origin, where the inspector keeps its key:
 *
 * - every file answer is sandboxed (`Content-Security-Policy: sandbox; default-src 'none'`: an
 *   opaque origin that runs no script and loads nothing) and not sniffed (`nosniff`), whatever it is;
 * - only types a browser shows without running anything stay inline: raster images, plain text and
 *   JSON; every other type (HTML, SVG, XML, XHTML, JavaScript, PDF, anything unknown) is an
 *   attachment, saved rather than shown;
 * - a stored type that is not one clean `type/subtype` (`text/plain, text/html`, which a browser may
 *   read as its last part) is served as `application/octet-stream`.
 *
 * The decision is the type's, never the name's: `notes.txt` uploaded as `text/html` is an attachment.
 */

export const FILE_POLICY = "sandbox; default-src 'none'; frame-ancestors 'none'";

const OCTET_STREAM = 'application/octet-stream';

/** Types a browser renders without running anything; everything else is downloaded. */
const SHOWN_INLINE = new Set([
  'text/plain',
  'application/json',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
]);

/** RFC 9110 §8.3.1 `type/subtype`, both tokens, nothing else: no parameters, no list, no space. */
const MIME_TYPE = /^[a-z0-9!#$%&'*+.^_`|~-]+\/[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** `value` lowercased when it is one clean MIME type; null otherwise. */
export function cleanMimeType(value: string | undefined): string | null {
  const lowered = value?.trim().toLowerCase();
  return lowered && MIME_TYPE.test(lowered) ? lowered : null;
}

/** RFC 6266 with RFC 8187: an ASCII fallback name and the exact name, percent-encoded. */
function attachmentDisposition(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1) || 'file';
  const fallback = name.replace(/[^A-Za-z0-9._ -]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16)}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

/** The headers of a file answer: its type as served, how it is shown, and the sandbox. */
export function servedFileHeaders(file: { path: string; mimeType: string; size: number }): Headers {
  const type = cleanMimeType(file.mimeType) ?? OCTET_STREAM;
  const headers = new Headers({
    'content-type': type,
    'content-length': String(file.size),
    'x-file-path': file.path,
    'x-content-type-options': 'nosniff',
    'content-security-policy': FILE_POLICY,
  });
  if (!SHOWN_INLINE.has(type)) headers.set('content-disposition', attachmentDisposition(file.path));
  return headers;
}
