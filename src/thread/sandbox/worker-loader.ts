/**
 * Isolates for sandboxed programs from the Worker Loader binding (CODE-1). Each program's isolate has
 * no network (`globalOutbound: null`) unless its run was granted one, and then every request leaves
 * through SandboxNetwork, that is through the calling tool's `state.fetch`. The host side reaches the
 * isolate as an RPC target, so the program's tool calls and file access run in the thread, checked
 * there, and nothing of the thread is handed to the isolate itself.
 */
import { RpcTarget } from 'cloudflare:workers';
import type {
  SandboxCode,
  SandboxHost,
  SandboxIsolate,
  SandboxLoader,
  SandboxOutcome,
} from '../../engine/ports/index.js';
import { activeSpan, withSpan } from '../../engine/tracing/index.js';

/** The compatibility date programs run under; fixed, so a program behaves the same on every deploy. */
export const SANDBOX_COMPATIBILITY_DATE = '2026-04-20';

/** What the isolate's main module exports (engine/sandbox/sandbox-main.ts). */
interface SandboxEntrypoint {
  run(input: unknown, host: HostBridge): Promise<SandboxOutcome>;
  stop(): Promise<void>;
}

/**
 * The host side as the isolate calls it over RPC: each method forwards to the engine's host. A call
 * from the isolate arrives outside the program's async context, so its tool calls are put back
 * under the span of the call that runs the program (TRACE-3).
 */
class HostBridge extends RpcTarget {
  private readonly span = activeSpan();
  constructor(private readonly host: SandboxHost) {
    super();
  }
  callTool(name: string, args: unknown) {
    return withSpan(this.span, () => this.host.callTool(name, args));
  }
  readFile(path: string) {
    return this.host.readFile(path);
  }
  writeFile(path: string, text: string) {
    return this.host.writeFile(path, text);
  }
  listFiles(path: string) {
    return this.host.listFiles(path);
  }
}

/** The loader the engine gets; `network(run)` is the outbound of a run granted the network. */
export function workerLoaderSandbox(loader: WorkerLoader, network: (run: string) => Fetcher): SandboxLoader {
  return {
    load(code: SandboxCode): SandboxIsolate {
      const worker = loader.get(code.id, () => ({
        compatibilityDate: SANDBOX_COMPATIBILITY_DATE,
        mainModule: 'main.js',
        modules: code.modules,
        globalOutbound: code.networkRun === null ? null : network(code.networkRun),
        limits: { cpuMs: code.cpuMs },
      }));
      const entrypoint = worker.getEntrypoint() as unknown as SandboxEntrypoint;
      return {
        run: async (input, host) => {
          const outcome = await entrypoint.run(input, new HostBridge(host));
          // Disposed at once rather than left to the garbage collector, whose warning about an
          // undisposed RPC result would record the stack mid-collection (isolate-host-bridge.ts).
          (outcome as Partial<Disposable>)[Symbol.dispose]?.();
          return outcome;
        },
        stop: () => entrypoint.stop(),
      };
    },
  };
}
