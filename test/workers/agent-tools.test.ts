import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';

interface Details {
  children: { id: string; status?: string }[];
  tags: string[];
}

async function details(id: string): Promise<Details> {
  return (await (await api(`/api/threads/${id}`)).json()) as Details;
}

describe('agents offered as tools', () => {
  it('SUB-2, SUB-3: a blocking agent tool runs the agent in a child thread, named by its init properties', async () => {
    const id = await createThread({ agent: 'delegator' });
    await api(`/api/threads/${id}/files/brief.txt`, {
      method: 'PUT',
      body: 'the brief',
      headers: { 'content-length': '9' },
    });
    const childScript = directive([
      { toolCalls: [{ name: 'read_file', arguments: { path: '/attachments/from-parent/brief.txt' } }] },
      { text: 'helped' },
    ]);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          {
            toolCalls: [{ name: 'helper', arguments: { question: childScript, files: ['brief.txt'], label: 'alpha' } }],
          },
          { text: 'parent done' },
        ]),
      },
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      name: 'helper',
      tool_status: 'success',
      content: 'helped',
    });
    const [child] = (await details(id)).children;
    expect((await details(child?.id ?? '')).tags).toEqual(['name:alpha']);
    expect((await messages(child?.id ?? '')).find((m) => m.role === 'tool')?.content).toBe('the brief');
  });

  it('SUB-3: a non-blocking agent tool returns at once; the answer arrives later as a message to the parent', async () => {
    const id = await createThread({
      agent: 'delegator',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'background_helper', arguments: { message: directive([{ text: 'bg done' }]) } }] },
            { text: 'carrying on' },
          ]),
        },
      ],
    });
    const log = await until(
      () => messages(id),
      (list) => list.some((m) => m.role === 'assistant' && m.content?.startsWith('echo: Subagent background_helper')),
    );
    expect(log.find((m) => m.role === 'tool')?.content).toMatch(
      /^Started background_helper in thread .+; its answer will arrive as a message\.$/,
    );
    const notice = log.find((m) => m.role === 'user' && m.content?.startsWith('Subagent background_helper'));
    expect(notice?.content).toMatch(/^Subagent background_helper \(thread .+\) finished:\nbg done$/);
    expect(notice?.metadata).toMatchObject({ from_child: expect.any(String) });
    // The parent went on without waiting: its own answer came before the child's notice.
    expect(log.findIndex((m) => m.content === 'carrying on')).toBeLessThan(log.indexOf(notice as (typeof log)[number]));
  });

  it('SUB-3: an optional agent tool exists only when its flag variable is true, 1 or yes', async () => {
    const call = directive([{ toolCalls: [{ name: 'flagged_helper', arguments: { message: 'hi' } }] }, { text: 'ok' }]);
    const off = await createThread({ agent: 'delegator', messages: [{ content: call }] });
    expect((await settled(off)).find((m) => m.role === 'tool')?.content).toContain('Unknown tool "flagged_helper"');
    const on = await createThread({
      agent: 'delegator',
      variables: { HELPERS_ON: 'Yes' },
      messages: [{ content: call }],
    });
    expect((await settled(on)).find((m) => m.role === 'tool')).toMatchObject({
      tool_status: 'success',
      content: 'echo: hi',
    });
  });

  it('SUB-2: an ai_human agent listed by name is a handoff: the same thread continues under that agent', async () => {
    const id = await createThread({
      agent: 'front',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'billing', arguments: { note: 'wants a refund' } }] },
            // Only billing's prompt offers `add`, and no longer `echo`.
            {
              toolCalls: [
                { name: 'add', arguments: { a: 2, b: 2 } },
                { name: 'echo', arguments: { text: 'x' } },
              ],
            },
            { text: 'billing here' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const results = log.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toBe('The conversation is now handled by the Billing agent. Note: wants a refund');
    expect(results[1]).toBe('4');
    expect(results[2]).toContain('Unknown tool "echo". Available tools: add');
    const view = (await (await api(`/api/threads/${id}`)).json()) as { agent: string; children: unknown[] };
    expect(view).toMatchObject({ agent: 'billing', children: [] });
    const listed = await until(
      async () =>
        ((await (await api('/api/threads?agent=billing&limit=200')).json()) as { threads: { id: string }[] }).threads,
      (threads) => threads.some((thread) => thread.id === id),
    );
    expect(listed.map((thread) => thread.id)).toContain(id);
  });

  it('SUB-4: state.notifyParent queues a message on the parent; on a thread without a parent it fails clearly', async () => {
    const childScript = directive([
      { toolCalls: [{ name: 'report_progress', arguments: { note: 'halfway there' } }] },
      { text: 'bg done' },
    ]);
    const id = await createThread({
      agent: 'delegator',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'background_helper', arguments: { message: childScript } }] },
            { text: 'carrying on' },
          ]),
        },
      ],
    });
    const log = await until(
      () => messages(id),
      (list) => list.some((m) => m.role === 'user' && m.content?.startsWith('Subagent background_helper')),
    );
    const progress = log.find((m) => m.role === 'user' && m.content === 'halfway there');
    expect(progress?.metadata).toMatchObject({ from_child: expect.any(String) });

    const orphan = await createThread({
      agent: 'general',
      messages: [
        {
          content: directive([{ toolCalls: [{ name: 'report_progress', arguments: { note: 'x' } }] }, { text: 'ok' }]),
        },
      ],
    });
    expect((await settled(orphan)).find((m) => m.role === 'tool')?.content).toBe(
      'Error: this thread has no parent to notify',
    );
  });

  it('SUB-6: a subagent lacking required variables is deferred; the variables endpoint shows it and boots it', async () => {
    const id = await createThread({
      agent: 'delegator',
      messages: [
        {
          content: directive([
            {
              toolCalls: [{ name: 'token_helper', arguments: { message: directive([{ text: 'token child done' }]) } }],
            },
            { text: 'asked the user' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const failure = JSON.parse((log.find((m) => m.role === 'tool')?.content ?? '').replace(/^Error: /, '')) as {
      error: string;
      request_id: string;
      missing: string[];
      endpoint: string;
    };
    expect(failure).toMatchObject({ error: 'subagent_env_required', missing: ['API_TOKEN', 'region'] });
    expect(failure.endpoint).toBe(`/api/threads/${id}/variables/${failure.request_id}`);

    const shown = await api(failure.endpoint);
    expect(await shown.json()).toMatchObject({
      request_id: failure.request_id,
      agent: 'token_helper',
      missing: ['API_TOKEN', 'region'],
    });
    const partial = await api(failure.endpoint, { method: 'POST', json: { variables: { region: 'eu' } } });
    expect(partial.status).toBe(400);
    expect(await partial.json()).toMatchObject({
      error: { code: 'missing_variables', details: { missing: ['API_TOKEN'] } },
    });
    const booted = await api(failure.endpoint, {
      method: 'POST',
      json: { variables: { region: 'eu', API_TOKEN: 'tok-123456' } },
    });
    expect(booted.status).toBe(200);
    const { child_id } = (await booted.json()) as { child_id: string };
    const fromChild = (list: Awaited<ReturnType<typeof messages>>) =>
      list.find((m) => m.role === 'user' && m.content?.startsWith('Subagent token_helper'));
    const after = await until(
      () => messages(id),
      (list) => fromChild(list) !== undefined,
    );
    expect(fromChild(after)?.content).toBe(`Subagent token_helper (thread ${child_id}) finished:\ntoken child done`);
    expect((await api(failure.endpoint)).status).toBe(404);
    expect((await api(`/api/threads/${id}/variables/not-a-request`)).status).toBe(404);
  });
});
