/**
 * A thread's sandboxed programs (CODE-1): `state.runCode` of its tool calls, each in an isolate of
 * the LOADER binding, and the requests of those granted a network, which come back to this thread
 * (SandboxNetwork) and leave through their run's `state.fetch`.
 */
import { runProgram } from '../../engine/sandbox/index.js';
import type { RunCodeOptions, RunCodeResult, ThreadState } from '../../spec/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import { NetworkRuns } from './network-runs.js';
import type { SandboxNetworkProps } from './sandbox-network.js';
import { workerLoaderSandbox } from './worker-loader.js';

type Outbound = (options: { props: SandboxNetworkProps }) => Fetcher;

export class ThreadPrograms {
  private readonly networkRuns = new NetworkRuns();

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: RuntimeEnv,
  ) {}

  run(state: ThreadState, source: string, options: RunCodeOptions): Promise<RunCodeResult> {
    const loader = this.env.LOADER;
    if (!loader) {
      const error = 'runCode needs a Worker Loader binding: add [[worker_loaders]] binding = "LOADER" to wrangler.toml';
      return Promise.resolve({ status: 'error', error, logs: [], logsDropped: 0 });
    }
    const threadId = this.ctx.id.toString();
    // ctx.exports holds the entrypoints the Worker exports; the types this project pins predate it.
    const exported = (this.ctx as unknown as { exports?: Record<string, unknown> }).exports;
    const outbound = exported?.SandboxNetwork as Outbound | undefined;
    return runProgram(
      {
        loader: workerLoaderSandbox(loader, (run) => {
          if (!outbound) throw new Error('a program with network needs SandboxNetwork exported from the Worker');
          return outbound({ props: { threadId, run } });
        }),
        state,
        openNetwork: outbound ? (fetch) => this.networkRuns.open(fetch) : undefined,
      },
      source,
      options,
    );
  }

  /** A request of a program granted the network, by its run's id. */
  fetch(run: string, request: Request): Promise<Response> {
    return this.networkRuns.fetch(run, request);
  }
}
