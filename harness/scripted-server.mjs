/**
 * The plumbing the local protocol servers (openai-server.mjs, google-server.mjs) share, so each of
 * them holds only its protocol: a queue of scripted replies with a responder behind it, every request
 * recorded with whether the client went away before its answer was complete, the numbered TCP
 * connections, listening on 127.0.0.1 on a free port, the handle tests drive, streaming frames with a
 * stall or a delay, and small helpers (reading a body, ids, cutting text on code points). No bytes
 * on the wire are decided here: routes, headers, bodies and framing stay in each server.
 * Types are in scripted-server.d.mts.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

/**
 * @typedef {object} ScriptedRecord
 * @property {boolean} closedEarly
 * @property {unknown} body
 */

/**
 * @typedef {object} Scripted
 * @property {(record: ScriptedRecord, res: import('node:http').ServerResponse) => void} record
 *   Keeps `record` in the request log; marks it closedEarly if the client goes away before `res` ends.
 * @property {(record: ScriptedRecord) => Promise<any>} nextReply The next queued reply, else the responder's.
 * @property {(req: import('node:http').IncomingMessage) => number} connectionOf Which TCP connection, from 1.
 */

/**
 * Starts a scripted server on 127.0.0.1 with a free port.
 * @param {object} options
 * @param {any[] | undefined} options.replies The initial queue.
 * @param {(body: any, record: any) => any} options.respond Answers when the queue is empty.
 * @param {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse, scripted: Scripted) => Promise<void>} options.handle
 * @param {(res: import('node:http').ServerResponse, error: Error) => void} options.failed Answers a request whose handling threw.
 */
export async function startScriptedServer(options) {
  const queue = [...(options.replies ?? [])];
  /** @type {ScriptedRecord[]} */
  const requests = [];
  /** @type {WeakMap<import('node:net').Socket, number>} */
  const connectionIds = new WeakMap();
  let connections = 0;
  /** @type {Scripted} */
  const scripted = {
    record(record, res) {
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished) record.closedEarly = true;
      });
    },
    async nextReply(record) {
      return queue.length > 0 ? queue.shift() : await options.respond(record.body, record);
    },
    connectionOf: (req) => connectionIds.get(req.socket) ?? 0,
  };
  const server = createServer((req, res) => {
    options.handle(req, res, scripted).catch((error) => {
      if (res.headersSent) res.destroy();
      else options.failed(res, error);
    });
  });
  server.on('connection', (socket) => connectionIds.set(socket, ++connections));
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;

  return {
    /** The origin, e.g. `http://127.0.0.1:54321`. */
    url: `http://127.0.0.1:${port}`,
    port,
    /** Every request received, in order. */
    requests,
    /** @param {...any} replies Answers for the next requests, in order. */
    enqueue(...replies) {
      queue.push(...replies);
    },
    /** How many queued replies are still unused. */
    get pending() {
      return queue.length;
    },
    /** Empties the queue and the request log. */
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    /** Stops the server, cutting any open (e.g. stalled) streams. */
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
    },
  };
}

/**
 * Writes an event stream's frames as they are, then ends it; `stallAfter` writes that many `data:`
 * frames and then nothing more, keeping the connection open; `chunkDelayMs` waits between frames.
 * @param {import('node:http').ServerResponse} res
 * @param {string[]} frames
 * @param {{ stallAfter?: number, chunkDelayMs?: number }} pacing
 */
export async function writeFrames(res, frames, pacing) {
  let dataEvents = 0;
  for (const frame of frames) {
    if (res.destroyed) return;
    if (frame.startsWith('data:')) {
      if (pacing.stallAfter !== undefined && dataEvents >= pacing.stallAfter) return;
      dataEvents++;
    }
    res.write(frame);
    if (pacing.chunkDelayMs) await delay(pacing.chunkDelayMs);
  }
  res.end();
}

/**
 * Cuts on code points so no piece holds half a surrogate pair.
 * @param {string} text
 * @param {number} size
 */
export function split(text, size) {
  const chars = Array.from(text);
  const pieces = [];
  for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(''));
  return pieces;
}

/** @param {import('node:http').IncomingMessage} req */
export async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The parsed JSON of a request body; null when it is not JSON. @param {string} text */
export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** @param {number} length */
export function randomId(length) {
  return Array.from(randomBytes(length), (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}

/** @param {number} ms */
function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
