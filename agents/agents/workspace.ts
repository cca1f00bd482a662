import { defineAgent } from '@standardagents/spec';

export default defineAgent({
  name: 'workspace',
  title: 'Workspace',
  type: 'ai_human',
  sideA: { prompt: 'workspace', maxSteps: 50 },
  permissions: [
    // The thread's own files, through every tool and every shell command.
    { permission: 'fs.read', pattern: '*', action: 'allow' },
    { permission: 'fs.write', pattern: '*', action: 'allow' },
    { permission: 'shell.run', pattern: '*', action: 'allow' },
    { permission: 'task', action: 'allow' },
    // A reminder is an effect this thread schedules for itself (agents/effects/send_reminder.ts).
    { permission: 'remind_me', action: 'allow' },
    // Each new web host is approved by the human ("allow always" remembers it for the thread).
    { permission: 'net.fetch', pattern: '*', action: 'ask' },
    // Manifest denies are final: no session rule or "allow always" turns them into an allow, and
    // child threads inherit them.
    { permission: 'bash', pattern: 'rm -rf *', action: 'deny' },
    { permission: 'fs.write', pattern: '/.tool-output/*', action: 'deny' },
  ],
});
