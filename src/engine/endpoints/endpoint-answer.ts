/**
 * A thread endpoint's handler run to its answer (EP-8, EP-9): what it returns is the answer when it
 * is a Response; a handler that throws, or returns anything else, answers 500 `endpoint_failed`
 * with a message that says which, scrubbed of the thread's secrets (EXE-8), in the API's error shape.
 * Nothing it did before failing is undone, and nothing of the thread is harmed: the next request,
 * turn or endpoint finds the thread as the handler left it. Its code runs as a tool's does: the
 * global `fetch` inside it is the state's, checked by the egress policy and the thread's rules.
 */
import type { ThreadEndpointHandler, ThreadState } from '../../spec/index.js';
import { runInToolCall } from '../egress/index.js';

export const ENDPOINT_FAILED = 'endpoint_failed';

/** What a value is, in a few words, for the message of a handler that did not return a Response. */
function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'undefined' ? 'undefined' : `a ${typeof value}`;
}

/** A thrown value's message and stack, whatever was thrown: reading them may itself throw. */
function whatWasThrown(error: unknown): { message: string; stack: string } {
  try {
    if (error instanceof Error) return { message: String(error.message), stack: String(error.stack ?? error.message) };
    const text = String(error);
    return { message: text, stack: text };
  } catch {
    return { message: 'a value that cannot be shown was thrown', stack: 'a value that cannot be shown was thrown' };
  }
}

/** The answer of an endpoint that failed: 500 `endpoint_failed`, in the API's error shape. */
export function endpointFailure(message: string): Response {
  return Response.json({ error: { code: ENDPOINT_FAILED, message } }, { status: 500 });
}

export interface EndpointCall {
  /** The endpoint's key, named in its error messages. */
  key: string;
  handler: ThreadEndpointHandler;
  request: Request;
  state: ThreadState;
  params: Record<string, string>;
  /** The thread's secret scrubber. */
  scrub(text: string): string;
  /** Where the handler's error goes in full (the Worker's log), scrubbed. */
  log?(line: string): void;
}

export async function answerEndpoint(call: EndpointCall): Promise<Response> {
  let answer: unknown;
  try {
    // Inside, the global `fetch` is the state's: the egress policy and the thread's rules (containment).
    const network = { tool: `endpoint ${call.key}`, fetch: call.state.fetch.bind(call.state) };
    answer = await runInToolCall(network, () => call.handler(call.request, call.state, call.params));
  } catch (error) {
    const { message, stack } = whatWasThrown(error);
    call.log?.(call.scrub(`endpoint ${call.key} failed: ${stack}`));
    return endpointFailure(call.scrub(`endpoint ${call.key} failed: ${message}`));
  }
  if (answer instanceof Response) return answer;
  return endpointFailure(`endpoint ${call.key} returned ${describe(answer)}; a thread endpoint must return a Response`);
}
