/**
 * The offline demo model (src/providers/scripted/demo-script.ts) as a new user meets it: it calls a
 * tool only when the message names it as a word of its own (a plain-word name such as `write` only
 * in backticks or with JSON arguments), passes only the JSON the user wrote or the schema's
 * defaults, and as the two sides of a dual_ai thread plays a short exchange that ends.
 */
import { defineAgent, defineModel, definePrompt, defineTool, type JsonSchema } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import type { AppDefinitions } from '../../../src/engine/registry/index.js';
import { demoScript } from '../../../src/providers/scripted/index.js';
import { ALLOW_EVERYTHING, createHarness } from '../../support/memory-store.js';

const TOOLS = ['write', 'read', 'todo', 'web_fetch', 'units__world_clock', 'run_code'];
const SCHEMAS: Record<string, JsonSchema> = {
  write: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path'] },
  web_fetch: {
    type: 'object',
    properties: { url: { type: 'string' }, format: { type: 'string', default: 'markdown' } },
    required: ['url', 'format'],
  },
  todo: { type: 'object', properties: {} },
};

function calls(said: string) {
  const reply = demoScript({ messages: [{ role: 'user', content: said }], toolNames: TOOLS, toolSchemas: SCHEMAS });
  return reply.toolCalls ?? [];
}

describe('the offline demo model', () => {
  it('DEF-6: a plain-word tool name in a sentence calls nothing', () => {
    for (const said of ['write the plan', 'please read this and todo it later', 'Write it. Then read.']) {
      expect(calls(said), said).toEqual([]);
    }
  });

  it('DEF-6: a name inside a longer word or name calls nothing', () => {
    for (const said of [
      'rewrite it',
      'web_fetcher',
      'my_web_fetch',
      'units__world_clock_v2',
      'run_code-style',
      'reader',
    ]) {
      expect(calls(said), said).toEqual([]);
    }
  });

  it('DEF-6: a plain-word name in backticks or followed by JSON calls the tool', () => {
    expect(calls('please `todo`')).toEqual([{ name: 'todo', arguments: {} }]);
    expect(calls('write {"path":"plan.md","content":"step 1"} now')).toEqual([
      { name: 'write', arguments: { path: 'plan.md', content: 'step 1' } },
    ]);
  });

  it('DEF-6: a name with _ or digits standing alone calls the tool, with the JSON written after it', () => {
    expect(calls('try units__world_clock {"city":"Tokyo"}')).toEqual([
      { name: 'units__world_clock', arguments: { city: 'Tokyo' } },
    ]);
    expect(calls('run web_fetch, then run_code.')).toEqual([
      { name: 'web_fetch', arguments: { format: 'markdown' } },
      { name: 'run_code', arguments: {} },
    ]);
  });

  it('DEF-6: without JSON no argument is invented: {} or the defaults of required fields', () => {
    for (const call of [...calls('`write` web_fetch `todo` units__world_clock'), ...calls('`read`')]) {
      const schema = SCHEMAS[call.name] as { properties?: Record<string, unknown> } | undefined;
      for (const key of Object.keys(call.arguments as Record<string, unknown>)) {
        expect(Object.keys(schema?.properties ?? {}), `${call.name}.${key}`).toContain(key);
      }
      expect(call.arguments).not.toHaveProperty('query');
      expect(call.arguments).not.toHaveProperty('message');
    }
  });
});

const finish = defineTool({
  description: 'End the session',
  execute: async () => ({ status: 'success', result: 'ended' }),
});

function demoPair(stopTool?: string, maxSessionTurns = 6): AppDefinitions {
  const sideConfig = (prompt: string) => ({ prompt, ...(stopTool ? { stopTool } : {}) });
  return {
    tools: { finish },
    models: [defineModel({ name: 'demo', provider: 'scripted', script: demoScript })],
    prompts: [
      definePrompt({ name: 'proposer', prompt: 'Propose.', model: 'demo', tools: ['finish'] }),
      definePrompt({ name: 'critic', prompt: 'Criticise.', model: 'demo', tools: ['finish'] }),
    ],
    agents: [
      defineAgent({
        name: 'pair',
        type: 'dual_ai',
        maxSessionTurns,
        sideA: sideConfig('proposer'),
        sideB: sideConfig('critic'),
      }),
    ],
    permissions: ALLOW_EVERYTHING,
  };
}

describe('the offline demo model in a dual_ai thread', () => {
  it("DEF-6: each side answers a short line naming its side, never the other side's text", async () => {
    const h = createHarness({ definitions: demoPair(undefined, 6), agent: 'pair' });
    const topic = 'Ideas for a finish line that quotes itself';
    expect(await h.send(topic)).toEqual({ kind: 'done', reason: 'session_turns' });
    const answers = h.byRole('assistant');
    expect(answers).toHaveLength(6);
    for (const answer of answers) {
      const side = answer.metadata?.side === 'b' ? 'B' : 'A';
      const content = answer.content ?? '';
      expect(content.startsWith(`Side ${side} `), content).toBe(true);
      expect(content.length).toBeLessThan(160);
      expect(content).not.toContain(topic);
      expect(content).not.toContain(`Side ${side === 'A' ? 'B' : 'A'} `);
    }
    expect(h.byRole('tool')).toEqual([]);
  });

  it('DEF-6, EXE-7: with a stop tool, the second answer of side A ends the session', async () => {
    const h = createHarness({ definitions: demoPair('finish', 50), agent: 'pair' });
    const outcome = await h.send('A topic');
    expect(outcome).toMatchObject({ kind: 'done', reason: 'stop_tool' });
    expect(h.byRole('assistant').map((m) => m.metadata?.side)).toEqual(['a', 'b', 'a']);
    expect(h.byRole('tool').map((m) => m.name)).toEqual(['finish']);
  });
});
