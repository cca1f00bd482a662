/**
 * What a question's answers may be (LOCK-1, Q-1): one list per question asked; a question with
 * options takes only its option labels, spelled exactly as offered (same characters, letter case
 * and Unicode form: the label is what the model reads back, so "Red", "red\u200b" or a decomposed
 * "café" is not the option "café"), each at most once; a single-select question takes exactly one
 * answer. A question without options takes free text: the seed's question tool has no "other"
 * answer beside its options.
 */

interface AskedQuestion {
  question?: unknown;
  options?: { label?: unknown }[];
  multi_select?: unknown;
}

/** How a refusal names a question: its number and its text, quoted and cut short. */
function named(index: number, asked: AskedQuestion): string {
  const text = typeof asked.question === 'string' ? asked.question : '';
  const shown = text.length > 80 ? `${text.slice(0, 79)}…` : text;
  return `question ${index + 1} (${JSON.stringify(shown)})`;
}

function problemWith(index: number, asked: AskedQuestion, given: readonly unknown[]): string | null {
  const labels = (asked.options ?? []).map((option) => option.label).filter((label) => typeof label === 'string');
  if (asked.multi_select !== true && given.length !== 1) {
    return `${named(index, asked)} takes exactly one answer, ${given.length} given`;
  }
  if (labels.length === 0) return null;
  const seen = new Set<string>();
  for (const answer of given) {
    if (typeof answer !== 'string' || !labels.includes(answer)) {
      const offered = labels.map((label) => JSON.stringify(label)).join(', ');
      return `${named(index, asked)} takes only its options (${offered}), spelled as offered; ${JSON.stringify(answer)} is not one of them`;
    }
    if (seen.has(answer)) return `${named(index, asked)} has the answer ${JSON.stringify(answer)} twice`;
    seen.add(answer);
  }
  return null;
}

/** Null when the answers fit the questions asked, else what is wrong, naming the question. */
export function questionAnswersProblem(payload: unknown, answers: unknown): string | null {
  const questions = ((payload as { questions?: AskedQuestion[] } | null)?.questions ?? []) as AskedQuestion[];
  const given = Array.isArray(answers) ? answers : [];
  if (given.length !== questions.length) {
    return `answers must hold one list per question: ${questions.length} asked, ${given.length} given`;
  }
  for (const [index, asked] of questions.entries()) {
    const list = given[index];
    const problem = problemWith(index, asked, Array.isArray(list) ? list : []);
    if (problem) return problem;
  }
  return null;
}
