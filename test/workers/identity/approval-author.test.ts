/**
 * IDN-10 through HTTP, in workerd: who answered an approval is stored with the answer, shown on the
 * call's result message and in the `answered` frame, and written to the tenant's audit log with any
 * "allow always" rule the answer added. A caller cannot name someone else as the answerer.
 */
import { describe, expect, it } from 'vitest';
import { userIdForKey } from '../../../src/http/identity/index.js';
import { api, createThread, settled, until } from '../../support/api.js';
import { directive } from '../../support/directive-script.js';
import { openStream } from '../../support/socket.js';
import { ADMIN_KEY, call } from '../../support/worker-calls.js';

interface Waiting {
  status: string;
  waiting_for: { tool_call_id: string; kind: string }[];
}

async function approvalWait(id: string): Promise<string> {
  const view = await until(
    async () => (await (await api(`/api/threads/${id}`)).json()) as Waiting,
    (thread) => thread.status === 'waiting',
  );
  return view.waiting_for[0]?.tool_call_id ?? '';
}

interface AuditEntry {
  actor: { subject: string; role: string };
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
}

async function auditEntries(): Promise<AuditEntry[]> {
  const response = await call('/api/audit?limit=100', ADMIN_KEY);
  expect(response.status).toBe(200);
  return ((await response.json()) as { entries: AuditEntry[] }).entries;
}

const guarded = directive([{ toolCalls: [{ name: 'guarded_increment' }] }, { text: 'done' }]);

describe('who answered an approval (IDN-10)', () => {
  it('IDN-10: the answerer is on the result message, in the answered frame and in the audit log', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: guarded }] });
    const stream = await openStream(id);
    const toolCallId = await approvalWait(id);
    const answered = await api(`/api/threads/${id}/approvals`, {
      method: 'POST',
      json: { tool_call_id: toolCallId, approved: true, always: true },
    });
    expect(answered.status).toBe(200);
    const subject = await userIdForKey('test-key-alice');
    const author = { subject, role: 'approver' };
    const result = (await settled(id)).find((message) => message.role === 'tool');
    expect(result?.metadata).toMatchObject({ approval: { approved: true, answered_by: author } });
    const frame = await stream.waitFor((seen) => seen.type === 'answered');
    expect(frame).toMatchObject({ tool_call_id: toolCallId, kind: 'approval', answered_by: author, approved: true });
    stream.close();
    const entries = (await auditEntries()).filter((entry) => entry.target === `${id}/${toolCallId}`);
    expect(entries.map((entry) => entry.action).sort()).toEqual(['approval.answered', 'permission.always_added']);
    expect(entries[0]?.actor).toMatchObject(author);
    expect(entries.find((entry) => entry.action === 'approval.answered')?.detail).toEqual({
      tool: 'guarded_increment',
      approved: true,
      always: true,
    });
  });

  it('IDN-10: a caller naming someone else as the answerer is refused, and the call still waits', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: guarded }] });
    const toolCallId = await approvalWait(id);
    const forged = await api(`/api/threads/${id}/approvals`, {
      method: 'POST',
      json: { tool_call_id: toolCallId, approved: true, answered_by: { subject: 'someone-else', role: 'admin' } },
    });
    expect(forged.status).toBe(400);
    expect(await approvalWait(id)).toBe(toolCallId);
    const refused = await api(`/api/threads/${id}/approvals`, {
      method: 'POST',
      json: { tool_call_id: toolCallId, approved: false, reason: 'no' },
    });
    expect(refused.status).toBe(200);
    const result = (await settled(id)).find((message) => message.role === 'tool');
    const subject = await userIdForKey('test-key-alice');
    expect(result?.metadata).toMatchObject({
      approval: { approved: false, answered_by: { subject, role: 'approver' } },
    });
  });
});
