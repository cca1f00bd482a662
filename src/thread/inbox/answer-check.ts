/**
 * Checks an answer against what its wait asked for, before it is stored: a question's answers fit
 * its questions (question-answers.ts); a client tool's output matches its output schema (KIND-3).
 */
import type { AnyToolDefinition, ClientToolDefinition, Interaction } from '../../spec/index.js';
import { describeIssues } from '../../spec/internal.js';
import { questionAnswersProblem } from './question-answers.js';

export function checkAnswer(wait: Interaction, answer: unknown, tool: AnyToolDefinition | undefined): string | null {
  if (wait.kind === 'question') return questionAnswersProblem(wait.payload, answer);
  const schema = (tool as Partial<ClientToolDefinition<null>> | undefined)?.outputSchema;
  if (wait.kind === 'client_tool' && schema) {
    const checked = schema.safeParse(answer);
    if (!checked.success) {
      return `the output does not match the tool's output schema: ${describeIssues(checked.error)}`;
    }
  }
  return null;
}
