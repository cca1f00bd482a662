import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { openStream } from '../support/socket.js';

interface Details {
  agent: string;
  tags: string[];
  parent_id: string | null;
  children: { id: string; status?: string }[];
}

async function details(id: string): Promise<Details> {
  return (await (await api(`/api/threads/${id}`)).json()) as Details;
}

const toolResults = (log: readonly Message[]) => log.filter((m) => m.role === 'tool' && m.depth === 0);
const fromChildren = (log: readonly Message[]) =>
  log.filter((m) => m.role === 'user' && typeof m.metadata?.from_child === 'string');

describe('dual_ai agents and subagents across Durable Objects', () => {
  it('DEF-6, SUB-2: a dual_ai agent called as a tool debates in a child thread; its stop tool answers the call', async () => {
    // Side A answers with a script for side B, which closes the debate at once.
    const sideB = directive([{ toolCalls: [{ name: 'finish_debate', arguments: { verdict: 'tea wins' } }] }]);
    const sideA = directive([{ text: sideB }]);
    const id = await createThread({
      agent: 'moderator',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'debate', arguments: { message: sideA } }] },
            { text: 'the debate is over' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    expect(toolResults(log)[0]).toMatchObject({ name: 'debate', tool_status: 'success', content: 'tea wins' });
    const [child] = (await details(id)).children;
    const childLog = await messages(child?.id ?? '');
    expect(childLog.filter((m) => m.role === 'assistant').map((m) => m.metadata?.side)).toEqual(['a', 'b']);
    expect(childLog.at(-1)).toMatchObject({
      role: 'system',
      silent: true,
      metadata: { turn_end: { side: 'b', reason: 'stop_tool', next: null, answer: 'tea wins' } },
    });
  });

  it('SUB-1: a prompt tool runs nested in the same thread; its messages are listed one level deeper', async () => {
    const sub = directive([{ toolCalls: [{ name: 'add', arguments: { a: 20, b: 22 } }] }, { text: 'the sum is 42' }]);
    const id = await createThread({
      agent: 'moderator',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'summarizer', arguments: { message: sub } }] },
            { text: 'summarized' },
          ]),
        },
      ],
    });
    await settled(id);
    const top = await messages(id, '&depth=0');
    expect(top.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(top[2]).toMatchObject({ name: 'summarizer', content: 'the sum is 42' });
    const all = await messages(id, '&depth=1');
    const nested = all.filter((m) => m.depth === 1);
    expect(nested.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(nested.every((m) => m.parent_id === top[1]?.id)).toBe(true);
    expect(nested[2]?.content).toBe('42');
    expect((await details(id)).children).toEqual([]);
  });

  it('SUB-4: a resumable subagent is created by name, messaged three times, and each answer comes back (implicit)', async () => {
    const id = await createThread({
      agent: 'team_lead',
      messages: [
        {
          // One round, its calls run in order: the child's answers arrive as messages, which the turn
          // takes at its next step, so none comes between the calls (over three steps, the first
          // answer could come before the third step and be what the script's model answers).
          content: directive([
            {
              toolCalls: [
                { name: 'subagent_create', arguments: { agent: 'researcher', name: 'r1', message: 'one' } },
                { name: 'subagent_message', arguments: { name: 'r1', message: 'two' } },
                { name: 'subagent_message', arguments: { name: 'r1', message: 'three' } },
              ],
            },
            { text: 'all sent' },
          ]),
        },
      ],
    });
    const log = await until(
      () => messages(id),
      (list) => fromChildren(list).length === 3,
    );
    const [create, second, third] = toolResults(log);
    expect(create?.content).toMatch(/^Started researcher "r1" in thread [0-9a-f-]{36}\./);
    expect(second?.content).toMatch(/^Sent to "r1" \(thread [0-9a-f-]{36}\)\.$/);
    expect(third?.tool_status).toBe('success');
    const [child] = (await details(id)).children;
    const childId = child?.id ?? '';
    expect(fromChildren(log).map((m) => m.content)).toEqual(
      ['one', 'two', 'three'].map((word) => `Subagent researcher "r1" (thread ${childId}) finished:\necho: ${word}`),
    );
    const childView = await details(childId);
    expect(childView).toMatchObject({ agent: 'researcher', tags: ['name:r1'], parent_id: id });
    const childLog = await settled(childId);
    expect(childLog.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['one', 'two', 'three']);
  });

  it('SUB-4: maxInstances, duplicate names and unknown instances are refused with a clear error', async () => {
    const create = (name: string) => ({
      name: 'subagent_create',
      arguments: { agent: 'researcher', name, message: 'hi' },
    });
    const id = await createThread({
      agent: 'team_lead',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'echo', arguments: { text: 'first' } }] },
            // The message to nobody in the same round: a child's answer cannot come before it (see above).
            {
              toolCalls: [
                create('a'),
                create('a'),
                create('b'),
                create('c'),
                { name: 'subagent_message', arguments: { name: 'nobody', message: 'x' } },
              ],
            },
            { text: 'done' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const results = toolResults(log).map((m) => m.content);
    expect(results[1]).toMatch(/^Started researcher "a"/);
    expect(results[2]).toBe('Error: a subagent named "a" exists already in this thread');
    expect(results[3]).toMatch(/^Started researcher "b"/);
    expect(results[4]).toBe('Error: researcher has reached its limit of 2 instances in this thread');
    expect(results[5]).toBe('Error: no subagent instance named "nobody"; instances: a, b');
    expect((await details(id)).children).toHaveLength(2);
  });

  it('SUB-4: with explicit communication only state.notifyParent reaches the parent; side_b receives the messages', async () => {
    const workerScript = directive([
      { toolCalls: [{ name: 'report_progress', arguments: { note: 'explicit note' } }] },
      { text: 'quiet answer' },
    ]);
    const debateForB = directive([{ toolCalls: [{ name: 'finish_debate', arguments: { verdict: 'B spoke first' } }] }]);
    const id = await createThread({
      agent: 'team_lead',
      messages: [
        {
          content: directive([
            {
              toolCalls: [
                { name: 'subagent_create', arguments: { agent: 'quiet_worker', name: 'q', message: workerScript } },
                { name: 'subagent_create', arguments: { agent: 'debate', name: 'd', message: debateForB } },
              ],
            },
            { text: 'waiting' },
          ]),
        },
      ],
    });
    const log = await until(
      () => messages(id),
      (list) =>
        list.some((m) => m.content === 'explicit note') && list.some((m) => m.content?.includes('B spoke first')),
    );
    // The quiet worker's own answer is never reported: only its explicit note arrived.
    expect(fromChildren(log).map((m) => m.content)).toContain('explicit note');
    expect(fromChildren(log).some((m) => m.content?.includes('quiet answer'))).toBe(false);
    const children = (await details(id)).children.map((child) => child.id);
    const quietLog = await settled(children[0] ?? '');
    expect(quietLog.at(-1)?.content).toBe('quiet answer');
    // The debate's first message went to side B, which answered first.
    const debateLog = await messages(children[1] ?? '');
    expect(debateLog[0]?.metadata).toMatchObject({ to_side: 'b' });
    expect(debateLog.find((m) => m.role === 'assistant')?.metadata?.side).toBe('b');
  });

  it('SUB-3, SUB-5: an immediate subagent starts before the first model step; its scoped variable reaches the child and no model request', async () => {
    const canary = `key-${crypto.randomUUID()}`;
    const projectName = `proj-${crypto.randomUUID().slice(0, 8)}`;
    const brief = directive([{ toolCalls: [{ name: 'check_scoped' }] }, { text: `set up ${projectName}` }]);
    const id = await createThread({
      agent: 'onboarding',
      variables: { PROJECT_NAME: projectName, PROJECT_BRIEF: brief, PROJECT_KEY: canary },
      // The immediate step is the first assistant step; the model's own answer is its second.
      messages: [{ content: directive([{ text: 'never' }, { text: 'onboarded' }]) }],
    });
    const log = await settled(id);
    expect(log.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(log[1]).toMatchObject({ metadata: { immediate: true } });
    expect(JSON.parse(log[1]?.tool_calls?.[0]?.function.arguments ?? '')).toEqual({
      message: brief,
      label: projectName,
    });
    expect(log[2]).toMatchObject({ name: 'project_setup', content: `set up ${projectName}` });
    expect(log[3]?.content).toBe('onboarded');
    const [child] = (await details(id)).children;
    expect((await details(child?.id ?? '')).tags).toEqual([`name:${projectName}`]);
    const childLog = await messages(child?.id ?? '');
    expect(childLog.find((m) => m.role === 'tool')?.content).toBe(`PROJECT_KEY present (${canary.length} chars)`);
    // Both threads' model requests exist, and none of them carries the scoped value.
    const named = (await (
      await fetch(`${env.SERVICES_URL}/model-requests?containing=${projectName}`)
    ).json()) as unknown[];
    expect(named.length).toBeGreaterThanOrEqual(3);
    const leaked = (await (await fetch(`${env.SERVICES_URL}/model-requests?containing=${canary}`)).json()) as unknown[];
    expect(leaked).toEqual([]);
    // A later message does not start it again.
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: 'thanks' } });
    const after = await until(
      () => messages(id),
      (list) => list.length === 6,
    );
    expect(after.filter((m) => m.metadata?.immediate)).toHaveLength(1);
  });

  it('SUB-6, SUB-4: subagent_create lacking a scoped variable is deferred; booting it records the instance, which can then be messaged; frames reach the WebSocket', async () => {
    const id = await createThread({
      agent: 'team_lead',
      messages: [
        {
          content: directive([
            {
              toolCalls: [
                {
                  name: 'subagent_create',
                  arguments: { agent: 'project_setup', name: 'setup', message: directive([{ text: 'ready' }]) },
                },
              ],
            },
            { text: 'asked for the key' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const failure = JSON.parse((toolResults(log)[0]?.content ?? '').replace(/^Error: /, '')) as {
      error: string;
      endpoint: string;
      missing: string[];
    };
    expect(failure).toMatchObject({ error: 'subagent_env_required', missing: ['PROJECT_KEY'] });
    const stream = await openStream(id, (await thread(id)).last_frame_seq);
    const booted = await api(failure.endpoint, { method: 'POST', json: { variables: { PROJECT_KEY: 'k-1' } } });
    expect(booted.status).toBe(200);
    const { child_id } = (await booted.json()) as { child_id: string };
    // The instance's answer arrives as a message, streamed to the parent's WebSocket.
    const frame = await stream.waitFor(
      (f) => f.type === 'message' && (f as { message?: Message }).message?.metadata?.from_child === child_id,
    );
    expect((frame as unknown as { message: Message }).message.content).toBe(
      `Subagent project_setup "setup" (thread ${child_id}) finished:\nready`,
    );
    stream.close();
    // Booted through the variables endpoint, it is an instance like any other: it can be messaged by name.
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          { toolCalls: [{ name: 'subagent_message', arguments: { name: 'setup', message: 'status?' } }] },
          { text: 'sent' },
        ]),
      },
    });
    const after = await until(
      () => messages(id),
      (list) => fromChildren(list).some((m) => m.content?.endsWith('echo: status?')),
    );
    expect(toolResults(after).at(-1)?.content).toBe(`Sent to "setup" (thread ${child_id}).`);
    expect((await details(child_id)).tags).toEqual(['name:setup']);
  });
});
