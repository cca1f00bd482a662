/**
 * Mime types by file extension, for files written without one (ATT-1): the `mime` package's table
 * (every extension mime-db knows, vendor types such as `.docx` and `.xlsx` included, which is why the
 * full package and not `mime/lite`), under a few overrides of the project's own. Pure data and
 * lookups: runs on workerd and in Node alike.
 */
import mime from 'mime';

const FALLBACK_MIME_TYPE = 'application/octet-stream';

/**
 * Where mime-db's answer is wrong for a thread's files: source files the tools read as text keep a
 * text type (mime-db takes `.ts` for an MPEG transport stream and `.rs` for RLS services XML), YAML
 * keeps its registered `application/yaml` (RFC 9512), and Parquet, registered without an extension,
 * gets its type. A Map, so no name finds Object.prototype.
 */
const OVERRIDES = new Map<string, string>([
  ['ts', 'text/typescript'],
  ['mts', 'text/typescript'],
  ['cts', 'text/typescript'],
  ['rs', 'text/rust'],
  ['yaml', 'application/yaml'],
  ['yml', 'application/yaml'],
  ['parquet', 'application/vnd.apache.parquet'],
]);

/** The mime type of `path` by its extension (case-insensitive); `application/octet-stream` when unknown. */
export function mimeTypeFor(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  if (dot === -1) return FALLBACK_MIME_TYPE;
  const extension = name.slice(dot + 1).toLowerCase();
  if (extension === '') return FALLBACK_MIME_TYPE;
  return OVERRIDES.get(extension) ?? mime.getType(extension) ?? FALLBACK_MIME_TYPE;
}
