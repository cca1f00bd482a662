/**
 * Test agents for schedules: one whose definition declares schedules (installed in each new thread
 * of it), on the scripted `general` prompt, which echoes what it is sent.
 */
import { defineAgent } from '../../src/index.js';

export const agents = [
  defineAgent({
    name: 'scheduled',
    sideA: { prompt: 'general' },
    schedules: [
      { name: 'morning', cron: '0 0 9 * * *', timezone: 'Europe/Paris', message: 'good morning' },
      { name: 'hourly', cron: '0 * * * *', message: 'hourly check', missed: 'skip', paused: true },
    ],
  }),
];
