/**
 * The Worker of test/e2e/spec-app.test.ts: an application written only against the specification's
 * authoring API (`@standardagents/spec`), its hooks, effects, thread endpoint and message-editing
 * tools included, served with the example application's model. The permission rules are the
 * deployment's (this runtime asks before a call no rule covers): the application's files stay as the
 * specification has them.
 */
import defaultModel from '../../../agents/models/default.js';
import { createRuntime } from '../../../src/index.js';
import * as app from './index.js';

const runtime = createRuntime({
  ...app,
  models: [defaultModel],
  permissions: Object.keys(app.tools).map((permission) => ({ permission, action: 'allow' as const })),
});

export const Thread = runtime.Thread;
export const SandboxNetwork = runtime.SandboxNetwork;
export default runtime.worker;
