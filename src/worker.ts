/**
 * This repository's Worker: the runtime serving the example application in agents/.
 */
// The runtime loads before the application: a module of it that keeps a reference to the global
// `fetch` when it loads keeps the one checked inside tool calls (engine/egress/tool-network.ts).
import './runtime.js';
import * as app from '../agents/index.js';
import { createRuntime } from './runtime.js';

const runtime = createRuntime(app);

export const Thread = runtime.Thread;
export const SandboxNetwork = runtime.SandboxNetwork;
export const Tenant = runtime.Tenant;
export default runtime.worker;
