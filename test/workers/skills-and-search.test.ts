import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';

interface ModelRequest {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string; parameters?: unknown } }[];
}

async function requestsContaining(marker: string): Promise<ModelRequest[]> {
  return (await (await fetch(`${env.SERVICES_URL}/model-requests?containing=${marker}`)).json()) as ModelRequest[];
}

describe('skill and tool_search', () => {
  it('LOCK-4: only skill descriptions sit in the system prompt; the skill tool loads the body on demand', async () => {
    const marker = `marker-${crypto.randomUUID()}`;
    const id = await createThread({
      agent: 'extras',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'skill', arguments: { name: 'release-checklist' } }] },
            { text: marker },
          ]),
        },
      ],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')?.content).toBe(
      '# Skill: release-checklist\n\nSKILL-BODY: tag, build, publish, announce.',
    );
    // The marker is in this thread's script, so these are exactly this thread's model requests.
    const [first] = await requestsContaining(marker);
    const system = String(first?.messages[0]?.content);
    expect(system).toContain('- release-checklist: Steps to cut a release');
    expect(system).not.toContain('SKILL-BODY');
  });

  it('KIND-8, LOCK-4: a deferred tool is named only until tool_search loads it, then its schema is sent', async () => {
    const marker = `marker-${crypto.randomUUID()}`;
    const id = await createThread({
      agent: 'extras',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'tool_search', arguments: { query: 'convert units' } }] },
            { toolCalls: [{ name: 'convert_units', arguments: { value: 3, from: 'km', to: 'mi' } }] },
            { text: marker },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const results = log.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['convert_units: Convert a quantity between units', '3 km in mi']);
    const [before, , after] = await requestsContaining(marker);
    const names = (request: ModelRequest | undefined) => request?.tools?.map((tool) => tool.function.name) ?? [];
    expect(names(before)).not.toContain('convert_units');
    expect(String(before?.messages[0]?.content)).toContain(
      'More tools, loaded by searching for them with tool_search: convert_units.',
    );
    expect(names(after)).toContain('convert_units');
  });
});
