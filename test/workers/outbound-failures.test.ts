/**
 * How a failed outbound request reads, through the HTTP API on workerd: a tool's `state.fetch`, the
 * global `fetch` inside a tool and web_fetch, each sent to a local port nothing listens on and to a
 * name that never resolves (both allowed by EGRESS_ALLOW_HOSTS in vitest.config.ts, so the egress
 * policy lets them through to the network). The model reads the host and the cause, never workerd's
 * bare "internal error; reference = …".
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { OUTBOUND_FAILURES } from '../support/hostile-corpus.js';

interface Call {
  name: string;
  arguments: Record<string, unknown>;
}

async function results(calls: Call[]): Promise<Message[]> {
  const id = await createThread({
    agent: 'egress',
    messages: [{ content: directive([{ toolCalls: calls }, { text: 'done' }]) }],
  });
  const log = await settled(id);
  expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  return log.filter((message) => message.role === 'tool');
}

const closed = new URL(env.CLOSED_URL);
const targets = OUTBOUND_FAILURES.map((failure) => ({
  ...failure,
  url: failure.url.replace('CLOSED_HOST', closed.host),
  host: failure.host.replace('CLOSED_HOST', closed.host),
}));

describe('outbound request failures', () => {
  for (const target of targets) {
    it(`EXE-4: ${target.label}: each way of fetching names the host and the cause`, async () => {
      const found = await results([
        { name: 'fetch_status', arguments: { url: target.url } },
        { name: 'reach_network', arguments: { url: target.url, way: 'global' } },
        { name: 'web_fetch', arguments: { url: target.url } },
      ]);
      expect(found).toHaveLength(3);
      for (const result of found) {
        expect(result.tool_status, result.content ?? '').toBe('error');
        expect(result.content).toContain(`could not connect to ${target.host}`);
        expect(result.content).toMatch(target.cause);
        expect(result.content).not.toMatch(/internal error|reference =/);
        expect(result.content).not.toMatch(/Error: Error:/);
      }
    });
  }
});
