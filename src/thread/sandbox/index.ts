/**
 * Sandboxed programs (CODE-1) in the thread: isolates from the Worker Loader binding, the network a
 * granted program leaves through, and the runs that hold one.
 */
export type { RunFetch } from './network-runs.js';
export { NetworkRuns } from './network-runs.js';
export type { SandboxNetworkProps } from './sandbox-network.js';
export { SandboxNetwork } from './sandbox-network.js';
export { ThreadPrograms } from './thread-programs.js';
export { SANDBOX_COMPATIBILITY_DATE, workerLoaderSandbox } from './worker-loader.js';
