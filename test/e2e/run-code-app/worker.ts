/**
 * The Worker of test/e2e/run-code-programs.test.ts: the example application (agents/) and one more
 * agent, `coder`, whose prompt offers `run_code` and nothing else, so its programs are given no
 * tools: nothing in the isolate refers to the host but what the sandbox itself keeps.
 */
import * as examples from '../../../agents/index.js';
import { createRuntime, defineAgent, definePrompt } from '../../../src/index.js';

const coderPrompt = definePrompt({
  name: 'coder',
  prompt: 'You answer by writing one run_code program.',
  model: 'default',
  tools: ['run_code'],
});

const coderAgent = defineAgent({
  name: 'coder',
  title: 'Coder',
  sideA: { prompt: 'coder', maxSteps: 10 },
  permissions: [{ permission: 'run_code', action: 'allow' }],
});

const runtime = createRuntime({
  ...examples,
  prompts: [...examples.prompts, coderPrompt],
  agents: [...examples.agents, coderAgent],
});

export const Thread = runtime.Thread;
export const SandboxNetwork = runtime.SandboxNetwork;
export default runtime.worker;
