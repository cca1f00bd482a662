/**
 * The V8 sampling profiler of a wrangler dev's Worker, through its DevTools inspector (the Chrome
 * DevTools Protocol), and what a profile says: where the isolate's busy time went, by the project's
 * rooms (the unminified bundle's `// src/…` markers name each function's source file), by the
 * functions that ran SQLite statements, and by function. A sample inside a built-in (`sql.exec`, `fetch`, a stream read) is
 * counted for the built-in, and for the room of the JavaScript that called it.
 */
import { readFile } from 'node:fs/promises';
import WebSocket from 'ws';

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} CpuProfile
 * @typedef {{ busyUs: number, byPlace: Map<string, number>, sqliteByCaller: Map<string, number>, byFunction: Map<string, number> }} ProfileSummary
 */

/** Built-ins whose time is named apart: what a round's JavaScript waits on or hands work to. */
const SQLITE = new Set(['exec']);
const VM = new Set(['(program)', '(garbage collector)']);

/**
 * Connects to the first target of a wrangler dev's inspector.
 * @param {number} port
 */
export async function connectInspector(port) {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json`)).json();
  const target = targets.find((/** @type {{ webSocketDebuggerUrl?: string }} */ each) => each.webSocketDebuggerUrl);
  if (!target) throw new Error(`the inspector lists no target: ${JSON.stringify(targets)}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let next = 1;
  /** @type {Map<number, (message: { result?: any, error?: { message: string } }) => void>} */
  const waiting = new Map();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  /** @param {string} method @param {object} [params] @returns {Promise<any>} */
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = next++;
      waiting.set(id, (message) =>
        message.error ? reject(new Error(message.error.message)) : resolve(message.result),
      );
      socket.send(JSON.stringify({ id, method, params }));
    });
  return { send, close: () => socket.close() };
}

/**
 * Profiles the isolate while `work` runs.
 * @param {Awaited<ReturnType<typeof connectInspector>>} inspector
 * @param {() => Promise<void>} work
 * @returns {Promise<CpuProfile>}
 */
export async function profileWhile(inspector, work) {
  await inspector.send('Profiler.enable');
  await inspector.send('Profiler.setSamplingInterval', { interval: 100 });
  await inspector.send('Profiler.start');
  await work();
  const { profile } = await inspector.send('Profiler.stop');
  return profile;
}

/**
 * Maps a bundle's lines to the source files esbuild marks them with (`// src/thread/storage/x.ts`).
 * @param {string} bundlePath
 * @returns {Promise<(line: number) => string>}
 */
export async function sourceFiles(bundlePath) {
  const lines = (await readFile(bundlePath, 'utf8')).split('\n');
  /** @type {[number, string][]} */
  const marks = [];
  lines.forEach((line, index) => {
    const mark = /^\/\/ (?:\.\.\/)?((?:src|node_modules|bench|agents)\/\S+)$/.exec(line);
    if (mark?.[1]) marks.push([index, mark[1]]);
  });
  return (line) => {
    let low = 0;
    let high = marks.length - 1;
    let found = '(bundle)';
    while (low <= high) {
      const middle = (low + high) >> 1;
      const [at, file] = /** @type {[number, string]} */ (marks[middle]);
      if (at <= line) {
        found = file;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found;
  };
}

/**
 * A source file's room: `src/thread/storage/x.ts` → `thread/storage`; a package → its name.
 * @param {string} file
 */
export function roomOf(file) {
  const parts = file.split('/');
  if (parts[0] === 'node_modules') return parts[1]?.startsWith('@') ? `${parts[1]}/${parts[2]}` : (parts[1] ?? file);
  if (parts[0] === 'src') return parts.length > 3 ? `${parts[1]}/${parts[2]}` : (parts[1] ?? file);
  return parts[0] ?? file;
}

/**
 * Where the busy time of a profile went.
 * @param {CpuProfile} profile
 * @param {(line: number) => string} fileAt
 * @returns {ProfileSummary}
 */
export function summarize(profile, fileAt) {
  /** @type {Map<number, ProfileNode>} */
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} */
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  /** The nearest frame of the bundle at or above a node, if any. */
  const bundled = (/** @type {number} */ id) => {
    for (let at = /** @type {number | undefined} */ (id); at !== undefined; at = parentOf.get(at)) {
      const node = /** @type {ProfileNode} */ (byId.get(at));
      if (node.callFrame.url.endsWith('.js') && node.callFrame.url.includes('worker')) return node;
    }
    return null;
  };
  const summary = { busyUs: 0, byPlace: new Map(), sqliteByCaller: new Map(), byFunction: new Map() };
  const add = (/** @type {Map<string, number>} */ map, /** @type {string} */ key, /** @type {number} */ us) => {
    map.set(key, (map.get(key) ?? 0) + us);
  };
  for (const [index, id] of profile.samples.entries()) {
    const us = profile.timeDeltas[index + 1] ?? 0;
    const node = /** @type {ProfileNode} */ (byId.get(id));
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(root)') continue;
    summary.busyUs += us;
    const caller = VM.has(name) ? null : bundled(id);
    const file = caller ? fileAt(caller.callFrame.lineNumber) : '';
    if (VM.has(name)) add(summary.byPlace, `${name}: the engine outside JavaScript`, us);
    else if (!caller) add(summary.byPlace, 'built-ins run from the event loop (streams, timers, I/O)', us);
    else if (SQLITE.has(name) && caller !== node) {
      add(summary.sqliteByCaller, `\`${caller.callFrame.functionName || '(anonymous)'}\` (${file})`, us);
      add(summary.byPlace, 'SQLite statements (`sql.exec`)', us);
    } else if (caller !== node) add(summary.byPlace, `built-ins called from ${roomOf(file)}`, us);
    else {
      add(summary.byPlace, roomOf(file), us);
      add(summary.byFunction, `\`${name || '(anonymous)'}\` (${file.replace(/^node_modules\//, '')})`, us);
    }
  }
  return summary;
}
