/**
 * The Worker of test/e2e/evals.test.ts: the example application (agents/) with one prompt changed,
 * as a prompt edit would change it: the assistant's prompt no longer lists search_knowledge_base, so
 * the model is never offered the tool. The example eval suite, which passes on the example
 * application, must fail here and name the case that depends on the tool.
 */
import * as examples from '../../../agents/index.js';
import { createRuntime, definePrompt } from '../../../src/index.js';

/** The tool the changed prompt leaves out. */
const DROPPED_TOOL = 'search_knowledge_base';

const prompts = examples.prompts.map((prompt) =>
  prompt.name === 'assistant'
    ? definePrompt({
        name: prompt.name,
        toolDescription: prompt.toolDescription,
        prompt: prompt.prompt,
        model: prompt.model,
        tools: prompt.tools.filter((tool) => tool !== DROPPED_TOOL),
      })
    : prompt,
);

const runtime = createRuntime({ ...examples, prompts });

export const Thread = runtime.Thread;
export const SandboxNetwork = runtime.SandboxNetwork;
export default runtime.worker;
