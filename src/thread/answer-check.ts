/**
 * Checks an answer against what its wait asked for, before it is stored: a question gets one list
 * of answers per question asked.
 */
import type { Interaction } from '../spec/interaction.js';

export function checkAnswer(wait: Interaction, answer: unknown): string | null {
  if (wait.kind !== 'question') return null;
  const asked = (wait.payload as { questions?: unknown[] } | null)?.questions?.length ?? 0;
  const given = Array.isArray(answer) ? answer.length : 0;
  return given === asked ? null : `answers must hold one list per question: ${asked} asked, ${given} given`;
}
