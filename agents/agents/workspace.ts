import { defineAgent } from '@standardagents/spec';

export default defineAgent({
  name: 'workspace',
  title: 'Workspace',
  type: 'ai_human',
  sideA: { prompt: 'workspace', maxSteps: 50 },
  // Manifest rules are final: no session rule or "allow always" can turn these into an allow.
  permissions: [
    { permission: 'bash', pattern: 'rm -rf *', action: 'deny' },
    { permission: 'fs.write', pattern: '/.tool-output/*', action: 'deny' },
  ],
});
