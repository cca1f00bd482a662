/**
 * Error text as the model reads it: an error passed up through nested calls keeps one `Error:`
 * prefix. A run_code program whose tool call the user rejects fails with the rejection, read once.
 */
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';

interface Waiting {
  status: string;
  waiting_for: { tool_call_id: string; kind: string; name: string }[];
}

describe('error text', () => {
  it('EXE-4: a rejected call inside run_code reads "Error: The user rejected…" with no doubled prefix', async () => {
    const code = 'return await tools.sb_guarded({});';
    const id = await createThread({
      agent: 'sandbox',
      messages: [
        { content: directive([{ toolCalls: [{ name: 'run_code', arguments: { code } }] }, { text: 'done' }]) },
      ],
    });
    const view = await until(
      async () => (await (await api(`/api/threads/${id}`)).json()) as Waiting,
      (state) => state.status === 'waiting',
    );
    const wait = view.waiting_for[0];
    expect(wait).toMatchObject({ kind: 'approval', name: 'sb_guarded' });
    const rejected = await api(`/api/threads/${id}/approvals`, {
      method: 'POST',
      json: { tool_call_id: wait?.tool_call_id, approved: false, reason: 'not now' },
    });
    expect(rejected.status).toBeLessThan(300);
    const log = await settled(id);
    const result = log.find((message: Message) => message.role === 'tool' && message.name === 'run_code');
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toMatch(
      /^Error: The user rejected the call to tool "sb_guarded": not now\. It was not run\./,
    );
    expect(result?.content).not.toMatch(/Error: Error:/);
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
  });
});
