import { defineSkill } from '@standardagents/spec';

// A skill: only the description sits in the system prompt; the body loads through the skill tool.
export default defineSkill({
  name: 'code-review',
  description: 'How to review a change in the workspace before reporting on it',
  body: [
    '1. List the changed files with glob and read each one whole.',
    '2. Run the project checks with bash (for example `ls` and `cat` of the test output).',
    '3. Note every problem with its path and line, most serious first.',
    '4. Write the review to /review.md with write, then summarise it in two sentences.',
  ].join('\n'),
});
