/**
 * `run_code` (CODE-1): the model writes one TypeScript program instead of many small tool calls; the
 * program calls the other tools the prompt offers as async functions (`await tools.name(args)`) and
 * returns the answer. It runs in an isolate of its own through `state.runCode`, without network or
 * files of its own: every tool it calls is a call of this thread, checked and stored like the
 * model's (state.invokeTool). Off unless a prompt lists it. The declarations of the callable tools
 * are in the system prompt beside it (engine/request/system-prompt.ts).
 */
import { z } from 'zod';
import { defineTool } from '../../spec/index.js';

/** The tool's own limit: the program's calls each keep their own timeouts inside it. */
export const RUN_CODE_TIMEOUT_MS = 120_000;

export const RUN_CODE_TOOL = 'run_code';

export const runCode = defineTool({
  description: 'Run a TypeScript program that calls your other tools and returns the answer',
  args: z.object({
    code: z
      .string()
      .min(1)
      .describe('The body of an async function: call tools with await tools.<name>({ ... }), then return the result'),
  }),
  acpKind: 'execute',
  timeout: RUN_CODE_TIMEOUT_MS,
  execute: async (state, args) => {
    const callable = (state.execution?.offeredTools ?? []).filter((name) => name !== RUN_CODE_TOOL);
    // A call that waits for an answer pauses this one (CallPaused): it is not caught here.
    const outcome = await state.runCode(args.code, { tools: callable });
    const logs = outcome.logs.map((entry) => `[${entry.level}] ${entry.text}`);
    if (outcome.logsDropped > 0) logs.push(`[${outcome.logsDropped} more log lines dropped]`);
    const printed = logs.length > 0 ? `\n\nLogs:\n${logs.join('\n')}` : '';
    if (outcome.status === 'error') {
      const where = outcome.line ? ` (${outcome.file ?? 'program'} line ${outcome.line})` : '';
      return { status: 'error', error: `${outcome.error}${where}${printed}` };
    }
    const result = typeof outcome.result === 'string' ? outcome.result : JSON.stringify(outcome.result ?? null);
    return { status: 'success', result: `${result}${printed}` };
  },
});
