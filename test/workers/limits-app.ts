/**
 * Agents for test/workers/tenant-limits.test.ts (IDN-5, IDN-6): a scripted model that counts the
 * calls it receives under a marker its script names (countedScript), so a test can
 * say exactly how many model calls a refused turn made; and the question tool, to keep a turn open.
 */
import { defineAgent, defineModel, definePrompt, type ScriptedReply, type ScriptedRequest } from '../../src/index.js';
import { directiveScript } from '../support/directive-script.js';

const calls = new Map<string, number>();

/** A script whose model calls are counted under `marker`: `{"script":[...],"calls":"<marker>"}`. */
export function countedScript(replies: ScriptedReply[], marker: string): string {
  return JSON.stringify({ script: replies, calls: marker });
}

/** The marker of the thread's newest scripted message, if it has one. */
function markerOf(request: ScriptedRequest): string | null {
  const last = request.messages.findLast((message) => message.role === 'user');
  if (typeof last?.content !== 'string' || !last.content.startsWith('{"script"')) return null;
  const { calls: marker } = JSON.parse(last.content) as { calls?: unknown };
  return typeof marker === 'string' ? marker : null;
}

/** How many model calls the threads marked `marker` made. */
export function modelCalls(marker: string): number {
  return calls.get(marker) ?? 0;
}

export const models = [
  defineModel({
    name: 'counted',
    provider: 'scripted',
    prices: { input: 1, output: 2 },
    script: (request) => {
      const marker = markerOf(request);
      if (marker) calls.set(marker, (calls.get(marker) ?? 0) + 1);
      return directiveScript(request);
    },
  }),
];

export const prompts = [
  definePrompt({
    name: 'limits_general',
    prompt: 'You are a test agent.',
    model: 'counted',
    tools: ['echo', 'question'],
  }),
];

export const agents = [defineAgent({ name: 'limits', sideA: { prompt: 'limits_general' } })];
