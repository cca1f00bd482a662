import { defineAgent } from '@standardagents/spec';

export default defineAgent({
  name: 'notes',
  title: 'Notes',
  sideA: { prompt: 'notes', maxSteps: 6 },
});
