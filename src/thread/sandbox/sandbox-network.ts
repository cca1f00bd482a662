/**
 * The network of a sandboxed program that was granted one (CODE-1): the isolate's `globalOutbound`.
 * Its props name the thread and the run, set by the thread when it loads the isolate, so a program
 * cannot claim another run's network. Every request goes to the thread, which sends it through the
 * calling tool's `state.fetch`: the egress policy, redirects checked hop by hop, the tool's rules.
 * A Worker exports this class next to Thread (`export const SandboxNetwork = runtime.SandboxNetwork`).
 */
import { WorkerEntrypoint } from 'cloudflare:workers';
import type { RuntimeEnv } from '../bindings/index.js';

export interface SandboxNetworkProps {
  threadId: string;
  run: string;
}

export class SandboxNetwork extends WorkerEntrypoint<RuntimeEnv, SandboxNetworkProps> {
  override async fetch(request: Request): Promise<Response> {
    const { threadId, run } = this.ctx.props;
    const thread = this.env.THREADS.get(this.env.THREADS.idFromString(threadId));
    return thread.sandboxFetch(run, request);
  }
}
