/**
 * The network a tool's own code reaches (containment). Inside a tool call the global `fetch` is
 * that call's `state.fetch`: every request the tool's code makes — by `fetch`, `new Request` then
 * `fetch`, a library that calls `fetch`, or `node:http`, which workerd builds on `fetch` — passes the
 * egress policy and the call's `net.fetch` rules, each redirect included. `new WebSocket` and
 * `new EventSource`, which workerd opens without `fetch`, are refused inside a call. Outside any
 * call the globals behave as they always did.
 *
 * Which call is running is known through async context: the executor runs a tool's code inside its
 * call's context (runInToolCall, from tool-runner.ts), and everything that code starts (awaits,
 * timers, promise callbacks) stays in it, even after the call has ended, when its fenced state
 * refuses the request. A tool's `access` and `requireApproval`, which run before anything is
 * checked, reach no network (withoutNetwork). The runtime's own requests (model providers, MCP servers, `state.fetch`
 * underneath) use `runtimeFetch`, which leaves any call's context, so a subagent's model call made
 * inside a `task` call is not held to that call's rules.
 *
 * The globals are replaced when this module is first evaluated, before the application's modules
 * when the runtime is imported first: a module that loads later and keeps a reference to `fetch`
 * keeps the checked one. What stays outside is in docs/containment.md.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { EgressRefused } from '../../spec/index.js';

/** What a running call's code reaches the network through. */
export interface ToolNetwork {
  /** The tool the call runs, named in refusals. */
  tool: string;
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>;
}

const calls = new AsyncLocalStorage<ToolNetwork>();
const uncheckedFetch = globalThis.fetch;

/** Runs `run` (a tool's code) as the call `network` belongs to: the global `fetch` is its fetch. */
export function runInToolCall<T>(network: ToolNetwork, run: () => T): T {
  return calls.run(network, run);
}

/**
 * Runs a tool's code that decides whether a call may run (`access`, `requireApproval`): nothing is
 * checked yet, so it reaches no network at all.
 */
export function withoutNetwork<T>(tool: string, what: string, run: () => T): T {
  const refuse = (input: string | URL | Request) =>
    Promise.reject(
      new EgressRefused(
        `tool "${tool}": ${what} decides whether a call may run and cannot reach the network; fetch from execute`,
        input instanceof Request ? input.url : String(input),
      ),
    );
  return calls.run({ tool, fetch: refuse }, run);
}

/**
 * The runtime's own fetch: the global `fetch` outside any call's context, so the rules of the call
 * it happens to run under (a subagent inside `task`, an MCP tool) do not apply to it.
 */
export function runtimeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  // Leaving a context enters an empty one, and workerd then carries that frame through every
  // promise of the response's stream; outside any call there is nothing to leave.
  if (calls.getStore() === undefined) return globalThis.fetch(input, init);
  return calls.exit(() => globalThis.fetch(input, init));
}

function checkedFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const network = calls.getStore();
  // Called as a plain function: workerd refuses a fetch invoked with another `this`.
  if (!network) return uncheckedFetch(input, init);
  return network.fetch(input instanceof Request || input instanceof URL ? input : String(input), init);
}

/** A constructor that refuses to run inside a tool call, saying what to use instead. */
function refusedInCalls<T extends abstract new (...args: never[]) => unknown>(opener: T, instead: string): T {
  const name = opener.name;
  return new Proxy(opener, {
    construct(target, args, newTarget) {
      const network = calls.getStore();
      if (network) {
        const url = args.length > 0 ? String(args[0]) : null;
        throw new EgressRefused(
          `tool "${network.tool}": new ${name}() is refused inside a tool call, where the network is checked; ${instead}`,
          url,
        );
      }
      return Reflect.construct(target as unknown as new (...rest: unknown[]) => object, args, newTarget);
    },
  });
}

function guardGlobals(): void {
  const scope = globalThis as unknown as Record<string, unknown>;
  scope.fetch = checkedFetch;
  const { WebSocket, EventSource } = scope as {
    WebSocket?: abstract new (...args: never[]) => unknown;
    EventSource?: abstract new (...args: never[]) => unknown;
  };
  if (typeof WebSocket === 'function') {
    scope.WebSocket = refusedInCalls(
      WebSocket,
      "open it with fetch(url, { headers: { Upgrade: 'websocket' } }), which the call's rules check",
    );
  }
  if (typeof EventSource === 'function') {
    scope.EventSource = refusedInCalls(EventSource, "read the stream from fetch(url), which the call's rules check");
  }
}

guardGlobals();
