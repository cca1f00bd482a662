/**
 * The credential routine over HTTP (CRED-1): a prompt offered store_secret states the routine in its
 * system prompt, and a tool declaring a secret that is refused (a 401/403 its state.fetch received,
 * or error text saying so) gets a hint naming the variables. A model that follows only those words
 * (test/support/instruction-follower.ts) recovers; store_secret is capped at two rounds per failing
 * tool per turn, however many variables the tool has.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { CREDENTIAL_ROUND_DETOURS } from '../support/hostile-corpus.js';

interface Waiting {
  status: string;
  waiting_for: { tool_call_id: string; kind: string; payload: { name: string } }[];
}

/** The thread's next wait for a secret other than those already answered. */
async function secretWait(id: string, answered: readonly string[]) {
  const view = await until(
    async () => (await (await api(`/api/threads/${id}`)).json()) as Waiting,
    (candidate) =>
      candidate.status === 'waiting' &&
      candidate.waiting_for.some((wait) => wait.kind === 'secret' && !answered.includes(wait.tool_call_id)),
  );
  return view.waiting_for.find(
    (wait) => wait.kind === 'secret' && !answered.includes(wait.tool_call_id),
  ) as Waiting['waiting_for'][number];
}

const post = (id: string, toolCallId: string, value: string) =>
  api(`/api/threads/${id}/secrets`, { method: 'POST', json: { tool_call_id: toolCallId, value } });

const toolResults = (log: Message[]) => log.filter((m) => m.role === 'tool').map((m) => [m.name, m.content]);

describe('the credential routine (CRED-1)', () => {
  it('CRED-1: a model that follows only the routine and the hint refreshes the key and retries once', async () => {
    const id = await createThread({
      agent: 'cred_follow',
      variables: { SERVICES_URL: env.SERVICES_URL, CRED_KEY: `stale-${crypto.randomUUID()}` },
      messages: [{ content: JSON.stringify({ call: { name: 'cred_service', arguments: {} } }) }],
    });
    const wait = await secretWait(id, []);
    expect(wait.payload.name).toBe('CRED_KEY');
    expect((await post(id, wait.tool_call_id, `good-${crypto.randomUUID()}`)).status).toBe(200);
    const log = await settled(id);
    expect(toolResults(log)).toEqual([
      [
        'cred_service',
        'Error: the balance could not be read\nCredential hint: the service answered HTTP 401. Variables to refresh: CRED_KEY. Call store_secret for each, then retry this call once.',
      ],
      ['store_secret', expect.stringContaining('The user stored a new value for "CRED_KEY"')],
      ['cred_service', 'balance: 42'],
    ]);
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done: balance: 42' });
  });

  it.each(
    CREDENTIAL_ROUND_DETOURS,
  )('CRED-1: at most two store_secret rounds per failing tool per turn: $label', async ({ asks }) => {
    const STORE = (name: string) => ({ name: 'store_secret', arguments: { name, reason: 'the ledger refused' } });
    const id = await createThread({
      agent: 'cred_cap',
      variables: { SERVICES_URL: env.SERVICES_URL },
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'cred_two' }] },
            { toolCalls: [STORE(asks[0])] },
            { toolCalls: [STORE(asks[1])] },
            { toolCalls: [{ name: 'cred_two' }] },
            { toolCalls: [STORE(asks[2])] },
            { text: 'the ledger keeps refusing' },
          ]),
        },
      ],
    });
    const first = await secretWait(id, []);
    expect((await post(id, first.tool_call_id, `a-${crypto.randomUUID()}`)).status).toBe(200);
    const second = await secretWait(id, [first.tool_call_id]);
    expect((await post(id, second.tool_call_id, `b-${crypto.randomUUID()}`)).status).toBe(200);
    const log = await settled(id);
    const results = toolResults(log);
    expect(results.map(([name]) => name)).toEqual([
      'cred_two',
      'store_secret',
      'store_secret',
      'cred_two',
      'store_secret',
    ]);
    expect(results[0]?.[1]).toContain('Variables to refresh: CRED_A, CRED_B.');
    // Refused without asking anyone: nothing waits, and only the two values given are stored.
    expect(results[4]?.[1]).toBe(
      'Error: Credentials for the failing tool cred_two were already asked for 2 times in this turn. Stop retrying: tell the user the credential problem (which tool failed and why) and let them fix it.',
    );
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'the ledger keeps refusing' });
    const view = (await (await api(`/api/threads/${id}`)).json()) as Waiting;
    expect(view.waiting_for).toEqual([]);
  });
});
