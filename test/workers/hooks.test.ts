/**
 * Hooks through HTTP, on Durable Objects (HOOK-2 to HOOK-10): a history trimmed for the model while
 * the thread keeps every message, a secret-looking value redacted before a tool result is stored, a
 * failed call recovered, a call dropped, a throwing and a hanging hook skipped with the thread still
 * usable and the failure visible and scrubbed, and a hook's write refused by the thread's deny rule.
 * The agents are in hooks-app.ts.
 */
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { allFrames } from '../support/socket.js';

async function post(id: string, content: string): Promise<void> {
  const response = await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content } });
  expect(response.status).toBeLessThan(300);
}

/** Waits until the thread is idle with at least `count` messages; its log. */
async function idleWith(id: string, count: number): Promise<Message[]> {
  const [, log] = await until(
    () => Promise.all([thread(id), messages(id)]),
    ([view, log]) => view.status === 'idle' && log.length >= count,
  );
  return log;
}

const hookFailures = (frames: readonly { type: string }[]) =>
  frames.filter((frame) => frame.type === 'event' && (frame as unknown as { event: string }).event === 'hook_failed');

describe('HOOK-8: filter_messages over HTTP', () => {
  it('HOOK-8, HOOK-2: the model is sent the trimmed history while GET messages still shows every message', async () => {
    const id = await createThread({ agent: 'hooks_trim', messages: [{ content: 'first question' }] });
    await settled(id);
    await post(id, 'second question');
    await idleWith(id, 4);
    await post(id, directive([{ text: '@saw' }]));
    const log = await idleWith(id, 6);
    expect(log.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    // The request: the system text, then the last three stored messages only.
    const sent = (log.at(-1)?.content ?? '').split(' | ');
    expect(sent).toHaveLength(4);
    expect(sent[0]).toBe('system:You are hooks_trim.');
    expect(sent.slice(1, 3)).toEqual(['user:second question', 'assistant:echo: second question']);
    expect(sent.join(' | ')).not.toContain('first question');
  });
});

describe('HOOK-9: tool-call hooks over HTTP', () => {
  it('HOOK-9: before_store_tool_result redacts a secret-looking value before it is stored', async () => {
    const id = await createThread({
      agent: 'hooks_tools',
      messages: [{ content: directive([{ toolCalls: [{ name: 'hooks_lookup' }] }, { text: 'done' }]) }],
    });
    const log = await settled(id);
    const result = log.find((m) => m.role === 'tool');
    expect(result?.content).toBe('account key [redacted]');
    expect(JSON.stringify(log)).not.toContain('sk_live_4eC39HqLyjWDarjtT1zdp7dc');
  });

  it('HOOK-9: after_tool_call_failure recovers a failed call with a success result', async () => {
    const id = await createThread({
      agent: 'hooks_tools',
      messages: [{ content: directive([{ toolCalls: [{ name: 'hooks_flaky' }] }, { text: 'done' }]) }],
    });
    const result = (await settled(id)).find((m) => m.role === 'tool');
    expect(result).toMatchObject({ name: 'hooks_flaky', tool_status: 'success', content: 'fallback for hooks_flaky' });
  });

  it('HOOK-9: after_tool_call_success returning null drops the call: nothing of it stored, never sent again', async () => {
    const id = await createThread({
      agent: 'hooks_tools',
      messages: [{ content: directive([{ toolCalls: [{ name: 'hooks_noise' }] }, { text: '@saw' }]) }],
    });
    const log = await settled(id);
    expect(JSON.stringify(log)).not.toContain('NOISE');
    expect(log.filter((m) => m.role === 'tool' && !m.silent)).toEqual([]);
    // The step after the call was sent neither the call nor a result for it.
    const sent = log.at(-1)?.content ?? '';
    expect(sent).not.toContain('tool:');
    expect(sent).not.toContain('calls]');
    expect((await thread(id)).status).toBe('idle');
  });
});

describe('HOOK-7: a failing hook over HTTP', () => {
  it('HOOK-7, HOOK-5: a throwing and a hanging hook are skipped; the turn answers, the next one works, the failure is visible and scrubbed', async () => {
    const token = 'vault-tok-9f8e7d6c5b4a39281706';
    const id = await createThread({
      agent: 'hooks_failing',
      variables: { HOOKS_VAULT_TOKEN: token },
      messages: [{ content: 'hello' }],
    });
    const first = await settled(id);
    expect(first.at(-1)).toMatchObject({ role: 'assistant', content: 'echo: hello' });
    await post(id, 'still there?');
    const second = await idleWith(id, 4);
    expect(second.at(-1)).toMatchObject({ role: 'assistant', content: 'echo: still there?' });
    const failures = hookFailures(await allFrames(id)).map(
      (frame) => (frame as unknown as { data: { hook: string; point: string; error: string } }).data,
    );
    expect(failures.filter((failure) => failure.hook === 'hooks_throws')).toHaveLength(2);
    expect(failures.filter((failure) => failure.hook === 'hooks_hangs')).toHaveLength(2);
    expect(failures.find((failure) => failure.hook === 'hooks_throws')?.point).toBe('after_system_message');
    expect(failures.find((failure) => failure.hook === 'hooks_hangs')?.error).toContain('2000 ms');
    expect(JSON.stringify(failures)).not.toContain(token);
  });
});

describe('HOOK-10: a hook is contained over HTTP', () => {
  it("HOOK-10, HOOK-4: a hook's write under a deny rule is refused inside the hook; nothing written, the thread answers", async () => {
    const id = await createThread({ agent: 'hooks_contained', messages: [{ content: 'hi' }] });
    expect((await settled(id)).at(-1)?.content).toBe('echo: hi');
    const outcome = await api(`/api/threads/${id}/files/notes/hook-outcome.txt`);
    expect(outcome.status).toBe(200);
    expect(await outcome.text()).toMatch(/^refused: Denied by the manifest rule \(fs\.write, \/private\/\*\*, deny\)/);
    expect((await api(`/api/threads/${id}/files/private/plan.txt`)).status).toBe(404);
  });
});
