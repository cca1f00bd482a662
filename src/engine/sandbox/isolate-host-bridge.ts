/**
 * The program's bridge to the host, as JavaScript text for the isolate's main module (CODE-1): tool
 * calls and file operations go to the host as plain JSON and come back as values or errors, and the
 * program's result or throw becomes the run's outcome. Like the ledger (isolate-ledger.ts) it is text
 * the main module embeds; it relies on the primordials and the run state main.js defines (`apply`,
 * `stringify`, `parseJson`, `toText`, `clock`, `disposeKey`, `end`, `halted`, `pausedAt`, `failure`, ...),
 * and defines `holdArguments(input, host)`, `releaseHost()`, `toolsFor(host)`, `filesFor(host)` and
 * `runProgram(input, tools, files)`.
 *
 * Nothing that comes over RPC is left to the garbage collector. workerd warns when it collects an
 * RPC stub nobody disposed, and with an inspector attached (`wrangler dev`) the warning records the
 * JavaScript stack from inside that collection. A collection can happen in the middle of the
 * program's optimized code (while a built-in allocates, such as `Date.now()` in a hot loop), where V8
 * cannot describe the frame: it aborts the whole process ("Missing deoptimization information for
 * OptimizedJSFrame::Summarize"). So run()'s arguments are held until the isolate goes away, the host
 * is disposed when the run ends, and each result of a host call is disposed as it arrives.
 */
import { PROGRAM_MODULE } from './module-names.js';

export const HOST_BRIDGE_SOURCE = `
// run()'s arguments: the input, and the host, a stub whose dispose is taken before any program code runs.
let heldArguments = null;

function holdArguments(input, host) {
  const dispose = host === null || host === undefined ? undefined : host[disposeKey];
  heldArguments = { __proto__: null, input, host, dispose };
}

// Tells the thread the host is no longer used, once the run has ended; the arguments stay held.
function releaseHost() {
  const held = heldArguments;
  if (held === null || typeof held.dispose !== 'function') return;
  const dispose = held.dispose;
  held.dispose = undefined;
  try {
    apply(dispose, held.host, []);
  } catch {}
}

// A host call's result carries an own Symbol.dispose that disposes any stub inside it: called now,
// so none is left for the collector. The data stays as it is.
function disposeResult(value) {
  if (value === null || typeof value !== 'object') return;
  const descriptor = getOwnPropertyDescriptor(value, disposeKey);
  if (descriptor !== undefined && typeof descriptor.value === 'function') {
    try {
      apply(descriptor.value, value, []);
    } catch {}
  }
}

function messageOf(error) {
  try {
    return error !== null && typeof error === 'object' && typeof error.message === 'string'
      ? error.message
      : toText(error);
  } catch {
    return 'the host call failed';
  }
}

// A call to the host: refused once the run is over; a host rejection becomes an Error of this isolate.
async function hostCall(call) {
  if (halted !== null) throw halted.error;
  let value;
  try {
    value = await call();
  } catch (error) {
    pausedAt = clock();
    throw new OriginalError(messageOf(error));
  }
  // The program waited for the host: it paused.
  pausedAt = clock();
  disposeResult(value);
  return value;
}

// Tool arguments cross to the host as JSON data only: no functions (which RPC would pass as stubs).
function jsonArguments(args) {
  let json;
  try {
    json = stringify(args ?? {});
  } catch (error) {
    throw new TypeError('tool arguments must be JSON: ' + messageOf(error));
  }
  if (json === undefined) throw new TypeError('tool arguments must be JSON');
  return parseJson(json);
}

function toolsFor(host) {
  const tools = createObject(null);
  for (const name of CONFIG.toolNames) {
    const call = async (args) => {
      const plain = jsonArguments(args);
      return hostCall(() => host.callTool(name, plain));
    };
    defineProperty(tools, name, { value: call, enumerable: true });
  }
  return freeze(tools);
}

function filesFor(host) {
  return freeze({
    read: async (path) => hostCall(() => host.readFile(toText(path))),
    write: async (path, text) => hostCall(() => host.writeFile(toText(path), toText(text))),
    list: async (path) => hostCall(() => host.listFiles(path === undefined ? '/' : toText(path))),
  });
}

// The returned value as JSON. The replacer counts the text as it grows, so a value whose JSON would
// be huge (a shared subtree repeated a million times) is refused before it is built.
function resultOutcome(value) {
  if (value === undefined) return plain({ ok: true, result: null, logs: copyLogs(), logsDropped });
  // A lower bound of the text so far: a comma per array item, a quoted key and colon per property,
  // a string's quotes and characters, one character for anything else.
  let size = 0;
  const counting = function (key, item) {
    size += (isArray(this) ? 1 : key.length + 3) + (typeof item === 'string' ? item.length + 2 : 1);
    if (size > CONFIG.maxResultBytes) throw new SandboxHalt('SandboxResultError', CONFIG.messages.result);
    return item;
  };
  let json;
  try {
    json = stringify(value, counting);
  } catch (error) {
    if (halted !== null) return haltedOutcome();
    if (error instanceof SandboxHalt) return failure('result', CONFIG.messages.result, null);
    return failure('result', 'the returned value cannot be turned into JSON: ' + messageOf(error), null);
  }
  if (halted !== null) return haltedOutcome();
  if (json === undefined) {
    return failure('result', 'the returned value (of type ' + typeof value + ') has no JSON form', null);
  }
  if (utf8Length(json) > CONFIG.maxResultBytes) return failure('result', CONFIG.messages.result, null);
  return plain({ ok: true, result: json, logs: copyLogs(), logsDropped });
}

function thrownOutcome(error) {
  if (halted !== null) return haltedOutcome();
  let message;
  try {
    message = error instanceof OriginalError ? toText(error.name) + ': ' + toText(error.message) : describe(error);
  } catch {
    message = describe(error);
  }
  if (halted !== null) return haltedOutcome();
  return failure('thrown', message, error);
}

async function runProgram(input, tools, files) {
  let value;
  try {
    const program = await import('./${PROGRAM_MODULE}');
    value = await program.default(input, tools, files);
  } catch (error) {
    // A run already ended (stopped, timed out) has its outcome: end() does not read a late one.
    end(() => thrownOutcome(error));
    return;
  }
  end(() => (halted !== null ? haltedOutcome() : resultOutcome(value)));
}
`;
