/**
 * Checks an answer against what its wait asked for, before it is stored: a question gets one list
 * of answers per question asked; a client tool's output matches its output schema (KIND-3).
 */
import type { AnyToolDefinition, ClientToolDefinition, Interaction } from '../../spec/index.js';
import { describeIssues } from '../../spec/internal.js';

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
