import { definePrompt } from '@standardagents/spec';

export default definePrompt({
  name: 'workspace',
  toolDescription: 'An assistant that works on the files of its thread',
  prompt:
    'You work on the files of this thread. Read before you edit, keep a todo list for multi-step work, ask the user with question when a choice is theirs, and hand self-contained pieces of work to a subagent with task.',
  model: 'default',
  tools: [
    'read',
    'write',
    'edit',
    'glob',
    'grep',
    'bash',
    'todo',
    'question',
    'task',
    'web_fetch',
    'skill',
    'remind_me',
  ],
  // A very long thread sends the model only its newest messages (agents/hooks/trim_history.ts).
  hooks: ['trim_history'],
});
