/**
 * This repository's Worker: the runtime serving the example application in agents/.
 */
import * as app from '../agents/index.js';
import { createRuntime } from './runtime.js';

const runtime = createRuntime(app);

export const Thread = runtime.Thread;
export const SandboxNetwork = runtime.SandboxNetwork;
export default runtime.worker;
