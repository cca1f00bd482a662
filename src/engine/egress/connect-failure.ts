/**
 * What a tool reads when a request the egress policy allowed never got an answer (containment,
 * EXE-4): the host and the cause. workerd reports a failed DNS lookup only to its own log and gives
 * the caller "internal error; reference = …", and a refused connection as "Network connection
 * lost."; Node gives a code on the error's cause (ENOTFOUND, ECONNREFUSED, …). Each is turned into
 * "could not connect to <host>: <cause>", so the model and the user see why without the dev console.
 */

/** Node's (undici's) error codes, by what they mean to someone reading the tool's result. */
const NODE_CAUSES: Readonly<Record<string, string>> = {
  ENOTFOUND: 'DNS lookup failed (the name did not resolve)',
  EAI_AGAIN: 'DNS lookup failed (the name server did not answer)',
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection was closed',
};

/** workerd's texts (the message of the error its fetch rejects with), matched in order. */
const WORKERD_CAUSES: readonly [RegExp, string][] = [
  [/internal error; reference = /i, '(the network refused or the name did not resolve)'],
  [/DNS lookup failed/i, 'DNS lookup failed (the name did not resolve)'],
  [/network connection lost/i, 'connection refused or lost'],
  [/connection refused/i, 'connection refused'],
  [/timed? ?out/i, 'the connection timed out'],
  [/\bTLS\b|\bSSL\b|certificate/i, 'TLS failed'],
];

/** The error codes on `error` and its causes, outermost first. */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let at: unknown = error, depth = 0; at && typeof at === 'object' && depth < 5; depth++) {
    const code = (at as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    at = (at as { cause?: unknown }).cause;
  }
  return codes;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why the connection failed, in words; the runtime's own text when it matches nothing known. */
export function connectCause(error: unknown): string {
  const codes = codesOf(error);
  for (const code of codes) {
    const known = NODE_CAUSES[code];
    if (known) return known;
    if (code.startsWith('ERR_TLS') || code.includes('CERT')) return `TLS failed (${code})`;
  }
  const message = messageOf(error);
  for (const [pattern, cause] of WORKERD_CAUSES) {
    if (!pattern.test(message)) continue;
    // A bare internal-error reference says nothing the reader can use: it is left out.
    return cause === 'TLS failed' ? `TLS failed: ${message}` : cause;
  }
  return message.replace(/^(?:Error: )+/, '');
}

/** The error a tool's fetch rejects with when `url`'s host could not be reached. */
export function connectFailure(url: URL, error: unknown): Error {
  const cause = connectCause(error);
  const separator = cause.startsWith('(') ? ' ' : ': ';
  return new Error(`could not connect to ${url.host}${separator}${cause}`, { cause: error });
}
