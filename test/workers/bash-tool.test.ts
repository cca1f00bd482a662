/**
 * The `bash` tool in workerd (LOCK-1): just-bash runs inside the Thread Durable Object, over the
 * thread filesystem in R2. A scripted model calls `bash` on a thread of agent `shell` driven over
 * HTTP; what the command wrote is downloaded over HTTP, and what a client uploaded is read by `cat`.
 */
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';

const tools = (log: Message[]) => log.filter((message) => message.role === 'tool');

function bashCalls(...commands: string[]): string {
  return directive([
    ...commands.map((command) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] })),
    { text: 'done' },
  ]);
}

describe('bash over HTTP', () => {
  it('LOCK-1: a command writes a file into the thread filesystem and it downloads over HTTP', async () => {
    const id = await createThread({
      agent: 'shell',
      messages: [{ content: bashCalls('mkdir -p out && echo hello > out/note.txt && cat out/note.txt && ls out') }],
    });
    const [call] = tools(await settled(id));
    expect(call?.tool_status).toBe('success');
    expect(call?.content).toBe('hello\nnote.txt\n');
    const download = await api(`/api/threads/${id}/files/out/note.txt`);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe('hello\n');
  });

  it('LOCK-1: a file uploaded over HTTP is read by cat, and a failing command reports its exit code', async () => {
    const id = await createThread({ agent: 'shell' });
    const body = new TextEncoder().encode('from the client\nsecond line\n');
    const put = await api(`/api/threads/${id}/files/inbox/hello.txt`, {
      method: 'PUT',
      body,
      headers: { 'content-type': 'text/plain', 'content-length': String(body.byteLength) },
    });
    expect(put.status).toBe(201);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: bashCalls('cat inbox/hello.txt | wc -l && grep second /inbox/hello.txt', 'cat nope.txt') },
    });
    const [read, failed] = tools(await settled(id));
    expect(read?.tool_status).toBe('success');
    expect(read?.content).toBe('2\nsecond line\n');
    expect(failed?.tool_status).toBe('error');
    expect(failed?.content).toContain('Exit code 1');
    expect(failed?.content).toContain('nope.txt: No such file or directory');
  });

  it('LOCK-1: text tools, pipes and gzip run on workerd; sqlite3 is not offered', async () => {
    const id = await createThread({
      agent: 'shell',
      messages: [
        {
          content: bashCalls(
            'printf "b\\na\\n" | sort | tr a-z A-Z; echo \'{"n":2}\' | jq .n; echo zip | gzip | gunzip; seq 3 | awk \'{s+=$1} END {print s}\'',
            'sqlite3 :memory: "select 1"',
          ),
        },
      ],
    });
    const [ok, missing] = tools(await settled(id));
    expect(ok?.content).toBe('A\nB\n2\nzip\n6\n');
    expect(missing?.tool_status).toBe('error');
    // LOCK-5: sqlite3 is not among bash's declared commands: refused before the shell runs.
    expect(missing?.content).toContain("is outside this agent's capabilities (shell.run)");
  });

  it('PERM-4: under a manifest deny, every compound form of the denied command is refused and nothing runs', async () => {
    const lines = ['echo a > a.txt && rm -rf a.txt', 'ls | rm a.txt', 'echo $(rm a.txt)', 'echo hi > /outside/x.txt'];
    const id = await createThread({
      agent: 'shell_guarded',
      // Asked for every line: a session "allow everything" cannot override the manifest.
      permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
      messages: [{ content: bashCalls(...lines) }],
    });
    const results = tools(await settled(id));
    expect(results.map((result) => result.tool_status)).toEqual(['error', 'error', 'error', 'error']);
    for (const result of results.slice(0, 3))
      expect(result.content).toContain('Denied by the manifest rule (bash, rm *, deny)');
    expect(results[3]?.content).toContain('fs.write "/outside/x.txt"');
    // The first line was refused whole: not even its harmless first command ran.
    expect((await api(`/api/threads/${id}/files/a.txt`)).status).toBe(404);
  });
});
