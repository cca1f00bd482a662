/**
 * The secret scrubber (EXE-8, VAR-3): built from a thread's secret values, it replaces every
 * occurrence of them with `[secret]` in text and in JSON-like values (strings inside objects and
 * arrays, keys too). A secret is also caught in the forms it commonly takes inside other text: raw,
 * JSON-escaped (once and twice), percent-encoded, and base64 of the value on its own (padded,
 * unpadded and URL-safe). Longer forms are replaced first, so a secret that contains another is
 * replaced whole.
 *
 * It sits on the hot path (every stored message, frame, file write and tool value passes through
 * it): a thread without secrets gets a scrubber that returns its input untouched at no cost, and a
 * thread with secrets scans each text once with one precompiled pattern.
 */
import type { ToolCall, ToolEnvelope } from '../../spec/index.js';
import { MIN_SECRET_LENGTH } from '../../spec/internal.js';
import { holdsAny, secretByteForms } from './secret-bytes.js';

export const SECRET_PLACEHOLDER = '[secret]';

export interface SecretScrubber {
  /** False when the thread has no secret to hide: every method returns its input as it is. */
  readonly active: boolean;
  text(text: string): string;
  /** A JSON-like value with every string (and object key) in it scrubbed; a copy only when active. */
  value<T>(value: T): T;
  /**
   * Whether bytes hold a secret in any form the text scrubber knows, in UTF-8, UTF-16 or Latin-1
   * (secret-bytes.ts): for content that cannot be scrubbed as text.
   */
  inBytes(bytes: Uint8Array): boolean;
  /**
   * Text still growing (a tool call's arguments as they stream, ARGS-1) cut before a tail that could
   * be the start of a secret: `text` scrubs only whole secrets, so "…sk-ab" of a secret still being
   * written would otherwise show its first characters.
   */
  withoutSecretStart(text: string): string;
}

const encoder = new TextEncoder();

function base64(text: string): string {
  let binary = '';
  for (const byte of encoder.encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** The spellings of one secret the scrubber looks for, longest first, without duplicates. */
export function secretForms(secret: string): string[] {
  const jsonEscaped = JSON.stringify(secret).slice(1, -1);
  const padded = base64(secret);
  const unpadded = padded.replace(/=+$/, '');
  const forms = [
    secret,
    jsonEscaped,
    JSON.stringify(jsonEscaped).slice(1, -1),
    encodeURIComponent(secret),
    padded,
    unpadded,
    unpadded.replace(/\+/g, '-').replace(/\//g, '_'),
  ];
  return [...new Set(forms)].sort((a, b) => b.length - a.length);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const passThrough = <T>(value: T): T => value;

/** The scrubber of a thread without secrets. */
export const NO_SECRETS: SecretScrubber = {
  active: false,
  text: passThrough,
  value: passThrough,
  inBytes: () => false,
  withoutSecretStart: passThrough,
};

/** How many characters at the end of `text` begin one of `forms` without completing it. */
function secretStartLength(text: string, forms: readonly string[]): number {
  let longest = 0;
  for (const form of forms) {
    for (let length = Math.min(form.length - 1, text.length); length > longest; length--) {
      if (text.endsWith(form.slice(0, length))) {
        longest = length;
        break;
      }
    }
  }
  return longest;
}

/**
 * A scrubber for `secrets`. Values shorter than MIN_SECRET_LENGTH are ignored: they are refused
 * wherever a secret enters the runtime, and replacing every "ab" would destroy all text.
 */
export function createScrubber(secrets: Iterable<string>): SecretScrubber {
  const values = [...new Set(secrets)].filter((secret) => secret.length >= MIN_SECRET_LENGTH);
  const forms = [...new Set(values.flatMap(secretForms))].sort((a, b) => b.length - a.length);
  if (forms.length === 0) return NO_SECRETS;
  // Alternatives are tried in order at each position: longest first means the longest match wins.
  const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'g');
  const text = (input: string): string => input.replace(pattern, SECRET_PLACEHOLDER);
  const deep = (input: unknown, ancestors: Set<object>): unknown => {
    if (typeof input === 'string') return text(input);
    if (typeof input !== 'object' || input === null) return input;
    if (ancestors.has(input)) throw new TypeError('cannot scrub a circular value');
    if (Array.isArray(input)) {
      ancestors.add(input);
      const out = input.map((item) => deep(item, ancestors));
      ancestors.delete(input);
      return out;
    }
    // Class instances (a Date, bytes) are not JSON text: they pass as they are.
    if (!isPlainObject(input)) return input;
    ancestors.add(input);
    // fromEntries defines own properties: a "__proto__" key stays a key.
    const out = Object.fromEntries(Object.entries(input).map(([key, item]) => [text(key), deep(item, ancestors)]));
    ancestors.delete(input);
    return out;
  };
  // Built on first use: most threads never write bytes that are not text.
  let byteForms: Uint8Array[] | undefined;
  return {
    active: true,
    text,
    value: <T>(input: T): T => deep(input, new Set()) as T,
    withoutSecretStart(input) {
      const cut = secretStartLength(input, forms);
      return cut === 0 ? input : input.slice(0, input.length - cut);
    },
    inBytes(bytes) {
      byteForms ??= values.flatMap((secret) => secretByteForms(secretForms(secret), secret));
      return holdsAny(bytes, byteForms);
    },
  };
}

/** The fields of a message (stored, queued or new) that carry text a secret could be in. */
interface MessageText {
  content: string | null;
  metadata?: Record<string, unknown> | null;
  tool_calls?: ToolCall[] | null;
  envelope?: ToolEnvelope | null;
}

/**
 * A message with its text scrubbed: content, tool call arguments, metadata and envelope. Ids, roles
 * and attachment references are structure, kept as they are (a reference names a file, whose
 * content is scrubbed when it is written).
 */
export function scrubMessage<M extends MessageText>(scrubber: SecretScrubber, message: M): M {
  if (!scrubber.active) return message;
  const content = message.content === null ? null : scrubber.text(message.content);
  return {
    ...message,
    content,
    ...(message.metadata ? { metadata: scrubber.value(message.metadata) } : {}),
    ...(message.envelope ? { envelope: scrubber.value(message.envelope) } : {}),
    ...(message.tool_calls
      ? {
          tool_calls: message.tool_calls.map((call) => ({
            ...call,
            function: { ...call.function, arguments: scrubber.text(call.function.arguments) },
          })),
        }
      : {}),
  } as M;
}
