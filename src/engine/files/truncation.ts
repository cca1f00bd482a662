/**
 * Truncation of large tool outputs (LOCK-6, seed 003 "Truncation"). When a tool's result text is
 * longer than its limits (`maxOutputBytes`, and for list-shaped tools a number of entries, one per
 * line), the model gets the head, cut at whole UTF-8 characters, and a closing line naming a sidecar
 * file that holds the whole output, byte for byte. The sidecar lives in the thread filesystem under
 * `/.tool-output/`, so `read` pages through it and deleting the thread deletes it.
 */

import type { AnyToolDefinition } from '../../spec/index.js';
import { DEFAULT_MAX_OUTPUT_BYTES } from '../../spec/internal.js';
import type { ThreadFiles } from './thread-files.js';

/** Where sidecars go: inside the thread's own root, wiped with the thread (LOCK-6). */
export const SIDECAR_DIRECTORY = '/.tool-output';

export interface TruncationLimits {
  /** UTF-8 bytes of result text shown to the model. */
  maxBytes: number;
  /** Lines (entries) shown to the model, for tools whose result is one entry per line. */
  maxEntries?: number;
}

export interface TruncationTarget {
  toolName: string;
  toolCallId: string;
  limits: TruncationLimits;
}

export interface TruncatedText {
  /** The head when truncated, else the text itself. */
  head: string;
  /** What the model reads: the head plus, when truncated, the closing line about the sidecar. */
  shown: string;
  truncated: boolean;
  /** The sidecar holding the whole text; absent if it could not be written. */
  outputPath?: string;
}

const entryLimits = new WeakMap<AnyToolDefinition, number>();

/**
 * Marks a tool whose result is one entry per line (glob, grep): beyond `maxEntries` lines the model
 * gets the first `maxEntries` and the sidecar keeps them all. Returns the same definition.
 */
export function withEntryLimit<T extends AnyToolDefinition>(tool: T, maxEntries: number): T {
  if (!(Number.isInteger(maxEntries) && maxEntries > 0)) throw new Error('maxEntries must be a positive integer');
  entryLimits.set(tool, maxEntries);
  return tool;
}

/** The limits of a tool; the defaults of `defineTool` for a call that named no known tool. */
export function truncationLimits(tool: AnyToolDefinition | undefined): TruncationLimits {
  if (!tool) return { maxBytes: DEFAULT_MAX_OUTPUT_BYTES };
  const maxEntries = entryLimits.get(tool);
  return maxEntries === undefined ? { maxBytes: tool.maxOutputBytes } : { maxBytes: tool.maxOutputBytes, maxEntries };
}

/** UTF-8 length of one UTF-16 code unit at `index` (4 for a surrogate pair, counted at its start). */
function unitBytes(text: string, index: number): { bytes: number; units: number } {
  const code = text.charCodeAt(index);
  if (code < 0x80) return { bytes: 1, units: 1 };
  if (code < 0x800) return { bytes: 2, units: 1 };
  if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return { bytes: 4, units: 2 };
  }
  // Other BMP characters; a lone surrogate is encoded as U+FFFD, also 3 bytes.
  return { bytes: 3, units: 1 };
}

/** The UTF-8 byte length of `text`, as TextEncoder would encode it, without encoding it. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; ) {
    const unit = unitBytes(text, index);
    bytes += unit.bytes;
    index += unit.units;
  }
  return bytes;
}

/**
 * The index where the longest run of whole characters starting at `start` and at most `maxBytes`
 * UTF-8 bytes long ends (`start` itself when even the first character does not fit).
 */
export function utf8CutIndex(text: string, start: number, maxBytes: number): number {
  let bytes = 0;
  let index = start;
  while (index < text.length) {
    const unit = unitBytes(text, index);
    if (bytes + unit.bytes > maxBytes) break;
    bytes += unit.bytes;
    index += unit.units;
  }
  return index;
}

/** The longest prefix of whole characters that fits in `maxBytes` UTF-8 bytes. */
export function utf8Head(text: string, maxBytes: number): string {
  return text.slice(0, utf8CutIndex(text, 0, maxBytes));
}

/** A path segment made of safe characters only: tool names and call ids come from models. */
function safeSegment(value: string): string {
  return (
    value
      .replace(/[^A-Za-z0-9_.-]/g, '_')
      .replace(/^\.+/, '_')
      .slice(0, 100) || '_'
  );
}

/** The sidecar of one tool call: `/.tool-output/<tool>-<tool call id>.txt`. */
export function sidecarPath(toolName: string, toolCallId: string): string {
  return `${SIDECAR_DIRECTORY}/${safeSegment(toolName)}-${safeSegment(toolCallId)}.txt`;
}

/** The first `maxEntries` lines, or null when there are no more than that. A final newline ends no entry. */
function entryHead(text: string, maxEntries: number): { head: string; total: number } | null {
  let total = 0;
  let cut = -1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    total++;
    if (total === maxEntries) cut = index;
  }
  if (!text.endsWith('\n') && text !== '') total++;
  if (total <= maxEntries || cut === -1) return null;
  return { head: text.slice(0, cut), total };
}

/**
 * Cuts `text` to the target's limits. When it is cut, the whole text is written to the sidecar
 * first, so the closing line never names a file that is not there.
 */
export async function truncateOutput(
  text: string,
  files: ThreadFiles,
  target: TruncationTarget,
): Promise<TruncatedText> {
  const { maxBytes, maxEntries } = target.limits;
  const reasons: string[] = [];
  let head = text;
  if (maxEntries !== undefined) {
    const entries = entryHead(head, maxEntries);
    if (entries) {
      head = entries.head;
      reasons.push(`the first ${maxEntries} of ${entries.total} entries`);
    }
  }
  // Cheap bound first: a string of n UTF-16 units is at most 3n UTF-8 bytes.
  if (head.length * 3 > maxBytes) {
    const totalBytes = utf8ByteLength(head);
    if (totalBytes > maxBytes) {
      head = utf8Head(head, maxBytes);
      reasons.push(`the first ${utf8ByteLength(head)} of ${totalBytes} bytes`);
    }
  }
  if (reasons.length === 0) return { head: text, shown: text, truncated: false };

  const path = sidecarPath(target.toolName, target.toolCallId);
  const showing = `[Output truncated: showing ${reasons.join(' and of those ')}.`;
  try {
    await files.write(path, text, { mimeType: 'text/plain; charset=utf-8' });
  } catch (error) {
    const note = `${showing} The full output could not be saved: ${(error as Error).message}]`;
    return { head, shown: `${head}\n${note}`, truncated: true };
  }
  const note = `${showing} The full output is in ${path}; page through it with read (offset, limit).]`;
  return { head, shown: `${head}\n${note}`, truncated: true, outputPath: path };
}
