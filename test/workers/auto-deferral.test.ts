/**
 * Automatic deferral over HTTP (DEFER-1): a prompt offering more tools than its limit (default 40,
 * MCP servers' tools counted) sends only that many schemas; the rest are named in the system text
 * and tool_search loads them, added by the runtime when the prompt does not list it.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, inject, it } from 'vitest';
import { createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';

interface ModelRequest {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}

async function requestsContaining(marker: string): Promise<ModelRequest[]> {
  return (await (await fetch(`${env.SERVICES_URL}/model-requests?containing=${marker}`)).json()) as ModelRequest[];
}

const names = (request: ModelRequest | undefined) => request?.tools?.map((tool) => tool.function.name) ?? [];
const system = (request: ModelRequest | undefined) => String(request?.messages[0]?.content);
const results = (log: readonly Message[]) => log.filter((m) => m.role === 'tool').map((m) => [m.name, m.content]);

describe('automatic deferral (DEFER-1)', () => {
  it('DEFER-1: past 40 tools (MCP included) the rest wait behind tool_search, which the runtime adds', async () => {
    const marker = `marker-${crypto.randomUUID()}`;
    const id = await createThread({
      agent: 'defer_many',
      variables: { MCP_URL: inject('mcpUrl'), MCP_TOKEN: `token-${crypto.randomUUID()}` },
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'tool_search', arguments: { query: 'catalog_044' } }] },
            { toolCalls: [{ name: 'many__catalog_044', arguments: { query: 'harbour' } }] },
            { text: marker },
          ]),
        },
      ],
    });
    const log = await settled(id);
    expect(results(log)).toEqual([
      ['tool_search', expect.stringContaining('many__catalog_044')],
      ['many__catalog_044', expect.stringContaining('catalog_044 ok')],
    ]);
    const [first, , last] = await requestsContaining(marker);
    const offered = names(first);
    // 40 in all: tool_search, the prompt's own in its order, store_secret (the agent has a secret
    // variable), then the server's first 34.
    expect(offered).toHaveLength(40);
    expect(offered.slice(0, 6)).toEqual(['tool_search', 'dm_alpha', 'question', 'dm_beta', 'todo', 'store_secret']);
    expect(offered.at(-1)).toBe('many__catalog_033');
    expect(offered).not.toContain('many__catalog_034');
    // The author's deferred tool stays deferred and takes no place.
    expect(offered).not.toContain('dm_gamma');
    const deferredNames = [
      'dm_gamma',
      ...Array.from({ length: 11 }, (_, index) => `many__catalog_${String(34 + index).padStart(3, '0')}`),
    ];
    expect(system(first)).toContain(
      `More tools, loaded by searching for them with tool_search: ${deferredNames.join(', ')}.`,
    );
    expect(names(last)).toContain('many__catalog_044');
  });

  it('DEFER-1: a prompt sets its own limit; built-ins it names stay loaded first, deferred stays deferred', async () => {
    const marker = `marker-${crypto.randomUUID()}`;
    const id = await createThread({
      agent: 'defer_few',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'tool_search', arguments: { query: 'dm_beta' } }] },
            { toolCalls: [{ name: 'dm_beta', arguments: { note: 'loaded' } }] },
            { text: marker },
          ]),
        },
      ],
    });
    const log = await settled(id);
    expect(results(log)).toEqual([
      ['tool_search', 'dm_beta: Answer with the word beta'],
      ['dm_beta', 'beta ran loaded'],
    ]);
    const [first, , last] = await requestsContaining(marker);
    expect(names(first)).toEqual(['question', 'tool_search', 'todo']);
    expect(system(first)).toContain(
      'More tools, loaded by searching for them with tool_search: dm_alpha, dm_beta, dm_gamma.',
    );
    expect(names(last)).toEqual(['dm_beta', 'question', 'tool_search', 'todo']);
  });
});
