import { definePrompt } from '@standardagents/spec';

export default definePrompt({
  name: 'notes',
  toolDescription: 'Keeps notes and follow-ups',
  prompt: "You keep the user's notes. Use your tools when asked.",
  model: 'default',
  tools: ['schedule_follow_up', 'tidy_messages', 'read_vault'],
  hooks: ['trim_history', 'redact_results'],
});
