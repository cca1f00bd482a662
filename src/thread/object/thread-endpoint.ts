/**
 * A thread endpoint run inside its thread's object (EP-8): the handler receives the thread's
 * `ThreadState` at rest (`execution` is null), built over the same store, files, variables and
 * stream as a turn's, so what it reads is current and what it emits reaches the thread's stream.
 * It is application code and is contained as a tool is (design of application code): every file
 * operation, request and child thread passes an access gate over the thread's rules, named
 * `endpoint:<key>`, where a rule that denies or asks refuses (nobody is there to approve) and what
 * no rule covers goes ahead; `state.fetch`, and the global `fetch` inside the handler, pass the
 * egress policy. Its error is scrubbed of the thread's secrets. Once it has answered, its state is
 * fenced as a finished tool call's: work it left running can read the thread but not change it.
 */

import { egressPolicy } from '../../engine/egress/index.js';
import { answerEndpoint, type EndpointTarget, endpointFailure } from '../../engine/endpoints/index.js';
import { type Fence, fencedState } from '../../engine/execute/index.js';
import { ThreadFiles } from '../../engine/files/index.js';
import { restingState } from '../../engine/guards/index.js';
import type { FileStore, FrameSink, ThreadHost } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import type { ThreadState } from '../../spec/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import type { ThreadVariables } from '../secrets/index.js';
import type { SqliteThreadStore } from '../storage/index.js';

export interface EndpointHost {
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  store(): SqliteThreadStore;
  files(): FileStore;
  emit: FrameSink;
  readonly variables: ThreadVariables;
  readonly thread: ThreadHost;
}

function notFound(key: string): Response {
  return Response.json(
    { error: { code: 'not_found', message: `no thread endpoint ${key} in this application` } },
    { status: 404 },
  );
}

/** Runs the endpoint `key` with `request` and its path's `params`; always answers, never throws. */
export async function runThreadEndpoint(
  host: EndpointHost,
  endpoint: EndpointTarget,
  request: Request,
): Promise<Response> {
  const { registry } = host;
  const definition = registry.endpoints.byKey.get(endpoint.key);
  if (!definition) return notFound(endpoint.key);
  const store = host.store();
  // Opened first: the live views below read what it opened.
  await host.variables.open();
  const label = `endpoint:${endpoint.key}`;
  let state: ThreadState;
  try {
    state = restingState(
      {
        store,
        // EXE-8: what the endpoint writes to files is scrubbed like everything else the thread keeps.
        // Live: a value the handler stores with `setEnv` is seen, and a secret hidden, at once.
        files: new ThreadFiles(host.files(), host.variables.liveScrubber),
        variables: host.variables.live,
        emit: host.emit,
        host: host.thread,
        egress: egressPolicy(host.env.EGRESS_ALLOW_HOSTS ?? ''),
        registry,
      },
      label,
    );
  } catch (error) {
    // The thread's rules include its agent's: without them nothing could say what the handler may do.
    return endpointFailure(error instanceof Error ? error.message : String(error));
  }
  // Once it has answered, what the handler left running can read the thread but change nothing.
  const fence: Fence = { ended: null };
  try {
    return await answerEndpoint({
      key: endpoint.key,
      handler: definition.handler,
      request,
      state: fencedState(state, fence, label),
      params: endpoint.params,
      scrub: host.variables.liveScrubber.text,
      log: host.variables.logError,
    });
  } finally {
    fence.ended = 'the endpoint has answered';
  }
}
