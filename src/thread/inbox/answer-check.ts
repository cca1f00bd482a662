/**
 * Checks an answer against what its wait asked for, before it is stored: a question gets one list
 * of answers per question asked; a client tool's output matches its output schema (KIND-3).
 */
import type { ClientToolDefinition } from '../../spec/define-client-tool.js';
import type { AnyToolDefinition } from '../../spec/index.js';
import type { Interaction } from '../../spec/interaction.js';
import { describeIssues } from '../../spec/zod-issues.js';

export function checkAnswer(wait: Interaction, answer: unknown, tool: AnyToolDefinition | undefined): string | null {
  if (wait.kind === 'question') {
    const asked = (wait.payload as { questions?: unknown[] } | null)?.questions?.length ?? 0;
    const given = Array.isArray(answer) ? answer.length : 0;
    return given === asked ? null : `answers must hold one list per question: ${asked} asked, ${given} given`;
  }
  const schema = (tool as Partial<ClientToolDefinition<null>> | undefined)?.outputSchema;
  if (wait.kind === 'client_tool' && schema) {
    const checked = schema.safeParse(answer);
    if (!checked.success) {
      return `the output does not match the tool's output schema: ${describeIssues(checked.error)}`;
    }
  }
  return null;
}
