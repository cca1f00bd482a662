/**
 * The hostile-input corpus: what an attacker (a model, or a client) tries against the containment
 * rules, kept in one file so it can grow. Every suite that proves a rule iterates over its section
 * here and asserts "refused and nothing changed": engine tests in Node, the tools and the HTTP routes
 * in workerd. Add a case here, not in a test file.
 */

// ---- paths -------------------------------------------------------------------------------------

/** A path that must be refused as a path (ATT-3), with the words the refusal names. */
export interface InvalidPathCase {
  label: string;
  /** The path as a tool argument receives it. */
  path: string;
  /** The same path as it travels in a URL after `/files/`, when it differs from encoding each segment. */
  url?: string;
  reason: RegExp;
}

export const PATH_REASON = {
  dots: /\.\.["']?\s*(segments?|parts?)|traversal|parent director/i,
  encoded: /percent-encoded|encoded/i,
  backslash: /backslash/i,
  nul: /\bNUL\b/,
  longName: /name[^"]*(too long|longer than)/i,
  longPath: /path[^"]*(too long|longer than)/i,
  control: /control character/i,
} as const;

/** Paths that are never valid, whatever the rules say; `file` is a marker-bearing name to look for. */
export function invalidPaths(file: string): InvalidPathCase[] {
  const longName = `${'n'.repeat(300 - file.length - 1)}-${file}`;
  const longPath = `${`${'d'.repeat(99)}/`.repeat(9)}${'p'.repeat(100 - file.length)}${file}`;
  return [
    { label: '../', path: `../${file}`, reason: PATH_REASON.dots },
    { label: 'a/../../', path: `a/../../${file}`, reason: PATH_REASON.dots },
    // A bare ".." segment is resolved by the URL parser before a request is sent: over HTTP it
    // travels as "%2F.." (decoded "/..").
    { label: '..', path: '..', url: '%2F..', reason: PATH_REASON.dots },
    { label: 'a/../..', path: 'a/../..', reason: PATH_REASON.dots },
    { label: 'a//..//..//', path: `a//..//..//${file}`, url: `a%2F%2F..%2F%2F..%2F%2F${file}`, reason: PATH_REASON.dots },
    { label: '/./../', path: `/./../${file}`, reason: PATH_REASON.dots },
    { label: 'dots then a sibling thread', path: `../../threads/x/${file}`, reason: PATH_REASON.dots },
    // In a URL these are decoded once by the server: %2e%2e%2f arrives as "../".
    { label: '%2e%2e%2f', path: `%2e%2e%2f${file}`, url: `%252e%252e%252f${file}`, reason: PATH_REASON.encoded },
    { label: '%2E%2E/', path: `a/%2E%2E/${file}`, url: `a/%252E%252E/${file}`, reason: PATH_REASON.encoded },
    {
      label: '%252e%252e%252f',
      path: `%252e%252e%252f${file}`,
      url: `%25252e%25252e%25252f${file}`,
      reason: PATH_REASON.encoded,
    },
    { label: '..\\', path: `..\\${file}`, reason: PATH_REASON.backslash },
    { label: '%5c', path: `a%5c${file}`, url: `a%255c${file}`, reason: PATH_REASON.encoded },
    { label: 'NUL', path: `${file}\u0000.png`, reason: PATH_REASON.nul },
    { label: '%00', path: `${file}%00.png`, url: `${file}%2500.png`, reason: PATH_REASON.encoded },
    { label: 'newline', path: `a\n${file}`, reason: PATH_REASON.control },
    { label: '300-character name', path: longName, reason: PATH_REASON.longName },
    { label: '1000-byte path', path: longPath, reason: PATH_REASON.longPath },
  ];
}

/**
 * Spellings of one canonical path (`/<dir>/<name>`) a rule about that path must catch: relative,
 * doubled slashes, `.` segments. Each is valid and names the same file.
 */
export function spellingsOf(dir: string, name: string): string[] {
  return [
    `/${dir}/${name}`,
    `${dir}/${name}`,
    `./${dir}/${name}`,
    `//${dir}/${name}`,
    `/./${dir}/${name}`,
    `/${dir}//${name}`,
    `/${dir}/./${name}`,
    `///${dir}///${name}`,
  ];
}

// ---- shell command lines -----------------------------------------------------------------------

// ---- network addresses -------------------------------------------------------------------------

// ---- secrets -----------------------------------------------------------------------------------

/** A spelling of a secret inside other text that must never leave the runtime (EXE-8). */
export interface SecretForm {
  label: 'raw' | 'JSON-escaped' | 'percent-encoded' | 'base64';
  encode(secret: string): string;
}

function utf8Base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export const SECRET_FORMS: readonly SecretForm[] = [
  { label: 'raw', encode: (secret) => secret },
  { label: 'JSON-escaped', encode: (secret) => JSON.stringify(secret).slice(1, -1) },
  { label: 'percent-encoded', encode: (secret) => encodeURIComponent(secret) },
  { label: 'base64', encode: utf8Base64 },
];

/**
 * A canary secret whose forms all differ from each other: quotes and a backslash change its JSON
 * form, reserved characters its percent-encoded form, a non-ASCII letter its UTF-8 base64. `core`
 * is a fragment unique to it: found anywhere, part of the secret leaked.
 */
export function secretCanary(): { secret: string; core: string } {
  const core = `canary-${crypto.randomUUID()}`;
  return { secret: `${core}-"q"\\ /+&=?é`, core };
}

/** Text carrying the secret in every form, one per line: what the canary tools push out. */
export function secretPayload(secret: string): string {
  return SECRET_FORMS.map((form) => `${form.label}: ${form.encode(secret)}`).join('\n');
}

/** Which forms of `secret` (or its unique `core`) occur in `text`. */
export function secretLeaks(text: string, secret: string, core: string): string[] {
  const found = SECRET_FORMS.filter((form) => text.includes(form.encode(secret))).map((form) => form.label);
  return text.includes(core) ? [...found, 'core fragment'] : found;
}

/** A way a value made by a tool (or sent to a thread) could leave the runtime's keeping (EXE-8, VAR-3). */
export interface SecretChannelCase {
  channel: SecretChannel;
  label: string;
}

export type SecretChannel =
  | 'tool_result'
  | 'tool_error'
  | 'thrown_error'
  | 'inject_message'
  | 'queue_message'
  | 'emit'
  | 'progress'
  | 'write_file'
  | 'write_bytes'
  | 'bash_file'
  | 'set_value'
  | 'set_context'
  | 'notify_parent'
  | 'escaped_error';

/** What a canary tool does with the secret, channel by channel; every one must come out scrubbed. */
export const SECRET_CHANNELS: readonly SecretChannelCase[] = [
  { channel: 'tool_result', label: 'a tool result' },
  { channel: 'tool_error', label: 'a tool error and its stack' },
  { channel: 'thrown_error', label: 'an error the tool throws, with its stack' },
  { channel: 'inject_message', label: 'state.injectMessage (content and metadata)' },
  { channel: 'queue_message', label: 'state.queueMessage (content and metadata)' },
  { channel: 'emit', label: 'state.emit (a stream frame; the secret as a value and as a key)' },
  { channel: 'progress', label: 'a generator tool progress event (frame and stored envelope)' },
  { channel: 'write_file', label: 'state.writeFile of text' },
  { channel: 'write_bytes', label: 'state.writeFile of UTF-8 bytes' },
  { channel: 'bash_file', label: 'the bash tool echoing it into a file' },
  { channel: 'set_value', label: 'state.setValue (the secret as a value and as a key)' },
  { channel: 'set_context', label: 'state.setContext (tool context)' },
  { channel: 'notify_parent', label: "state.notifyParent from a child (the parent's queue)" },
  {
    channel: 'escaped_error',
    label: "an error escaping the tool runner (the runtime's log line, last_error and error frame)",
  },
];
