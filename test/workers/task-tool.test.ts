import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';

interface Details {
  status: string;
  parent_id: string | null;
  children: { id: string; status?: string }[];
}

async function details(id: string): Promise<Details> {
  return (await (await api(`/api/threads/${id}`)).json()) as Details;
}

function taskCall(prompt: string) {
  return { toolCalls: [{ name: 'task', arguments: { description: 'sub work', prompt } }] };
}

describe('task tool and child threads', () => {
  it('LOCK-1, SUB-2: task runs a subagent in a child thread and the parent gets its final answer', async () => {
    const childScript = directive([
      { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
      { text: 'child says hi' },
    ]);
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([taskCall(childScript), { text: 'parent done' }]) }],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      name: 'task',
      tool_status: 'success',
      content: 'child says hi',
    });
    expect(log.at(-1)?.content).toBe('parent done');
    const parent = await until(
      () => details(id),
      (view) => view.children[0]?.status === 'idle',
    );
    expect(parent.children).toEqual([{ id: expect.any(String), status: 'idle' }]);
    const childId = parent.children[0]?.id ?? '';
    expect((await details(childId)).parent_id).toBe(id);
    const childLog = await messages(childId);
    expect(childLog.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    const listed = (await (await api(`/api/threads?parent=${id}`)).json()) as { threads: { id: string }[] };
    expect(listed.threads.map((t) => t.id)).toEqual([childId]);
  });

  it('SUB-7: a child that fails reports the failure to its parent as an error tool result', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([taskCall('{"fail":"child model down"}'), { text: 'recovered' }]) }],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({
      tool_status: 'error',
      content: 'Error: The child thread failed: child model down',
    });
    expect(log.at(-1)?.content).toBe('recovered');
  });

  it('PERM-2: a question asked in a child thread fails at once: children are headless', async () => {
    const childScript = directive([
      { toolCalls: [{ name: 'question', arguments: { questions: [{ question: 'Sure?' }] } }] },
      { text: 'went ahead' },
    ]);
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([taskCall(childScript), { text: 'ok' }]) }],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')?.content).toBe('went ahead');
    const childId = (await details(id)).children[0]?.id ?? '';
    const childTool = (await messages(childId)).find((m) => m.role === 'tool');
    expect(childTool?.content).toContain('No human can answer questions on this thread');
  });

  it('PERM-2: a call needing approval inside a child thread is denied at once, and the parent hears of it', async () => {
    const childScript = directive([{ toolCalls: [{ name: 'guarded_increment' }] }, { text: 'child gave up' }]);
    const id = await createThread({
      agent: 'general',
      messages: [{ content: directive([taskCall(childScript), { text: 'ok' }]) }],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')?.content).toBe('child gave up');
    const childId = (await details(id)).children[0]?.id ?? '';
    const childTool = (await messages(childId)).find((m) => m.role === 'tool');
    expect(childTool?.content).toContain('this thread is headless (no human to ask), so it is denied');
  });

  it('ATT-4: files cross by copy: parent → child for the task, child → parent for its results, paths valid on each side', async () => {
    const id = await createThread({ agent: 'general' });
    await api(`/api/threads/${id}/files/in/data.txt`, {
      method: 'PUT',
      body: 'from the parent',
      headers: { 'content-length': '15' },
    });
    const childScript = directive([
      {
        toolCalls: [
          { name: 'read_file', arguments: { path: '/attachments/from-parent/data.txt' } },
          { name: 'make_attachment', arguments: { name: 'out.txt', text: 'from the child' } },
        ],
      },
      { text: 'child done' },
    ]);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          {
            toolCalls: [
              { name: 'task', arguments: { description: 'files', prompt: childScript, files: ['in/data.txt'] } },
            ],
          },
          { text: 'parent done' },
        ]),
      },
    });
    const log = await settled(id);
    const childId = (await details(id)).children[0]?.id ?? '';
    const childTools = (await messages(childId)).filter((m) => m.role === 'tool');
    expect(childTools[0]?.content).toBe('from the parent');
    const result = log.find((m) => m.role === 'tool');
    expect(result).toMatchObject({ tool_status: 'success', content: expect.stringContaining('child done') });
    const [ref] = result?.attachments ?? [];
    expect(ref?.path).toMatch(new RegExp(`^/attachments/from-${childId.slice(0, 8)}/.+out\\.txt$`));
    expect(await (await api(`/api/threads/${id}/files${ref?.path}`)).text()).toBe('from the child');
  });

  it('ATT-4: handing over a file that does not exist fails the task call with a clear error', async () => {
    const id = await createThread({
      agent: 'general',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'task', arguments: { description: 'x', prompt: 'hi', files: ['nope.txt'] } }] },
            { text: 'ok' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    expect(log.find((m) => m.role === 'tool')).toMatchObject({ tool_status: 'error' });
    expect(log.find((m) => m.role === 'tool')?.content).toContain('no file /nope.txt to hand over');
    expect((await details(id)).children).toEqual([]);
  });
});
