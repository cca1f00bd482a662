/**
 * Containment through the HTTP API, in workerd (PERM-1, PERM-2, PERM-4, ATT-3, SUB-2, EXE-6): a
 * scripted model calls the real built-in tools on threads of agents with rules, over R2 files a
 * client uploaded, and what the client can observe afterwards proves each refusal changed nothing.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, messages, settled, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import {
  EQUIVALENT_SPELLINGS,
  invisibleRulePatterns,
  RM_DOCS_LINES,
  SECRET_READ_LINES,
  spellingsOf,
} from '../support/hostile-corpus.js';

const SECRET = 'SECRET-CONTENT-4b1d7e';

async function upload(id: string, path: string, text: string): Promise<void> {
  const body = new TextEncoder().encode(text);
  const response = await api(`/api/threads/${id}/files${path}`, {
    method: 'PUT',
    body,
    headers: { 'content-length': String(body.byteLength), 'content-type': 'text/plain' },
  });
  expect(response.status).toBe(201);
}

async function download(id: string, path: string): Promise<string | null> {
  const response = await api(`/api/threads/${id}/files${path}`);
  return response.status === 200 ? response.text() : null;
}

type Call = { name: string; arguments: Record<string, unknown> };

/** Each call in a step of its own, then a final answer, on a new thread of `agent` with `files`. */
async function run(agent: string, files: Record<string, string>, calls: Call[], extra: Record<string, unknown> = {}) {
  const id = await createThread({ agent, headless: true, ...extra });
  for (const [path, text] of Object.entries(files)) await upload(id, path, text);
  await api(`/api/threads/${id}/messages`, {
    method: 'POST',
    json: { content: directive([...calls.map((call) => ({ toolCalls: [call] })), { text: 'done' }]) },
  });
  const log = await settled(id);
  return { id, log, results: log.filter((message) => message.role === 'tool') };
}

const bash = (command: string): Call => ({ name: 'bash', arguments: { command } });

describe('the example workspace agent: its own rules hold however a call is spelled', () => {
  it('PERM-4: (bash, rm -rf *, deny) refuses every spelling and indirection of the corpus; /docs keeps its file', async () => {
    const { id, results } = await run('example_workspace', { '/docs/a.txt': 'alpha' }, RM_DOCS_LINES.map(bash));
    expect(results).toHaveLength(RM_DOCS_LINES.length);
    for (const [index, result] of results.entries()) {
      expect(result.tool_status, RM_DOCS_LINES[index]).toBe('error');
      expect(result.content, RM_DOCS_LINES[index]).toMatch(
        /Denied by the manifest rule \(bash, rm -rf \*, deny\)|outside this agent's capabilities/,
      );
    }
    expect(await download(id, '/docs/a.txt')).toBe('alpha');
  });

  it('PERM-1: (fs.write, /.tool-output/*, deny) refuses writes to every spelling, by write and by bash', async () => {
    const calls = [
      ...spellingsOf('.tool-output', 'x.txt').map((path) => ({
        name: 'write',
        arguments: { path, content: 'forged' },
      })),
      bash('echo forged > .tool-output/y.txt'),
      bash('echo forged > //.tool-output/y.txt'),
      bash('mkdir -p /.tool-output && cd /.tool-output && echo forged > y.txt'),
      bash('cp /docs/a.txt .tool-output/y.txt'),
    ];
    const { id, results } = await run('example_workspace', { '/docs/a.txt': 'alpha' }, calls);
    for (const [index, result] of results.entries()) {
      expect(result.tool_status, JSON.stringify(calls[index])).toBe('error');
      expect(result.content, JSON.stringify(calls[index])).toContain(
        'Denied by the manifest rule (fs.write, /.tool-output/*, deny)',
      );
    }
    const listing = await api(`/api/threads/${id}/files/.tool-output`);
    expect(listing.status).toBe(404);
  });
});

describe('an agent denying a folder: no tool, spelling or command gets around it', () => {
  const files = { '/secret/key.txt': `${SECRET}\n`, '/docs/a.txt': 'alpha', '/outside/existing.txt': 'original' };

  it('PERM-1: read refuses secret/key.txt, //secret/key.txt, /./secret/key.txt and every other spelling', async () => {
    const spellings = spellingsOf('secret', 'key.txt');
    const { log, results } = await run(
      'guarded',
      files,
      spellings.map((path) => ({ name: 'read', arguments: { path } })),
    );
    expect(results.map((result) => result.tool_status)).toEqual(spellings.map(() => 'error'));
    for (const result of results) {
      expect(result.content).toContain(
        'Denied by the manifest rule (fs.read, /secret/*, deny) for fs.read "/secret/key.txt"',
      );
    }
    expect(JSON.stringify(log)).not.toContain(SECRET);
  });

  it('PERM-1: no shell command of the corpus shows the file or copies it; cat says why it was refused', async () => {
    const { id, log, results } = await run('guarded', files, SECRET_READ_LINES.map(bash));
    expect(results).toHaveLength(SECRET_READ_LINES.length);
    expect(JSON.stringify(log)).not.toContain(SECRET);
    expect(JSON.stringify(log)).not.toContain(btoa(SECRET));
    expect(results[0]?.content).toContain(
      'Denied by the manifest rule (fs.read, /secret/*, deny) for fs.read "/secret/key.txt"',
    );
    for (const path of ['/docs/copy.txt', '/docs/key.gz', '/docs/all.tar']) {
      expect((await download(id, path)) ?? '', path).not.toContain(SECRET);
    }
  });

  it('PERM-1: echo hi > outside/file and its other spellings write nothing under /outside', async () => {
    const lines = [
      'echo hi > outside/file',
      'echo hi > //outside/file',
      'echo hi >> /outside/existing.txt',
      'rm -rf /outside',
    ];
    const { id, results } = await run('guarded', files, lines.map(bash));
    expect(results.map((result) => result.tool_status)).toEqual(lines.map(() => 'error'));
    expect(await download(id, '/outside/file')).toBeNull();
    expect(await download(id, '/outside/existing.txt')).toBe('original');
  });
});

describe('no rule means ask, and ask means deny on a headless thread', () => {
  it('PERM-2: an agent whose rules say nothing about bash cannot run rm -rf /docs; the refusal names the rule to add', async () => {
    const { id, results } = await run('bare', { '/docs/a.txt': 'alpha' }, [bash('rm -rf /docs')]);
    expect(results[0]?.tool_status).toBe('error');
    expect(results[0]?.content).toContain(`add { permission: 'bash', pattern: "rm -rf /docs", action: 'allow' }`);
    expect(results[0]?.content).toContain('this thread is headless (no human to ask), so it is denied');
    expect(await download(id, '/docs/a.txt')).toBe('alpha');
  });
});

describe('child threads are never freer than their parent', () => {
  /** What each child runs: an allowed write, then a removal its parent's manifest denies, then a write its parent's session denies. */
  const childScript = directive([
    { toolCalls: [{ name: 'bash', arguments: { command: 'mkdir -p /work && echo kept > /work/a.txt' } }] },
    { toolCalls: [{ name: 'bash', arguments: { command: 'rm -rf /work' } }] },
    { toolCalls: [{ name: 'write', arguments: { path: '/outside/x.txt', content: 'escaped' } }] },
    { text: 'child done' },
  ]);
  const sessionDeny = { permissions: [{ permission: 'fs.write', pattern: '/outside/*', action: 'deny' }] };

  async function childOf(parent: string): Promise<string> {
    const view = await until(
      async () => (await (await api(`/api/threads/${parent}`)).json()) as { children: { id: string }[] },
      (details) => details.children.length > 0,
    );
    return view.children[0]?.id ?? '';
  }

  async function expectContained(child: string): Promise<void> {
    const log = await until(
      () => messages(child),
      (list) => list.at(-1)?.content === 'child done',
    );
    const results = log.filter((message: Message) => message.role === 'tool');
    expect(results.map((result) => result.tool_status)).toEqual(['success', 'error', 'error']);
    expect(results[1]?.content).toContain('Denied by the inherited rule (bash, rm -rf *, deny)');
    expect(results[2]?.content).toContain('Denied by the inherited rule (fs.write, /outside/*, deny)');
    expect(await download(child, '/work/a.txt')).toBe('kept\n');
    expect(await download(child, '/outside/x.txt')).toBeNull();
  }

  it('PERM-1: a child made by task inherits its parent manifest denies and session rules', async () => {
    const task = { name: 'task', arguments: { description: 'work', prompt: childScript, agent: 'free_child' } };
    const { id } = await run('strict_parent', {}, [task], sessionDeny);
    await expectContained(await childOf(id));
  });

  it('PERM-1: a child made by an agent tool inherits them too', async () => {
    const { id } = await run(
      'strict_parent',
      {},
      [{ name: 'free_child', arguments: { message: childScript } }],
      sessionDeny,
    );
    await expectContained(await childOf(id));
  });

  it('PERM-1: a child made by subagent_create inherits them too', async () => {
    const create = {
      name: 'subagent_create',
      arguments: { agent: 'free_worker', name: 'w1', message: childScript },
    };
    const { id } = await run('strict_parent', {}, [create], sessionDeny);
    await expectContained(await childOf(id));
  });

  it('LOCK-1: task refuses an agent the prompt does not offer, naming those it may start; no child is made', async () => {
    const task = { name: 'task', arguments: { description: 'escape', prompt: 'hi', agent: 'guarded' } };
    const { id, results } = await run('strict_parent', {}, [task]);
    expect(results[0]?.tool_status).toBe('error');
    expect(results[0]?.content).toContain(
      '"guarded" is not an agent this prompt can start; it can start: free_child, free_worker, strict_parent',
    );
    const details = (await (await api(`/api/threads/${id}`)).json()) as { children: unknown[] };
    expect(details.children).toEqual([]);
  });
});

describe('a call that timed out cannot act afterwards', () => {
  it('EXE-6, EXE-10: a tool ignoring its abort signal gets its timeout result, and its later write and fetch are refused', async () => {
    const marker = crypto.randomUUID();
    const report = `${env.SERVICES_URL}/web/late?marker=${marker}`;
    const { id, results } = await run('guarded', {}, [
      { name: 'late_writer', arguments: { report } },
      { name: 'late_outcome', arguments: { report } },
    ]);
    expect(results[0]?.tool_status).toBe('error');
    expect(results[0]?.content).toContain('timed out after 30 ms');
    const ended = 'this call of tool "late_writer" has ended (it timed out); it can no longer change the thread';
    expect(results[1]?.content).toBe(`write: ${ended} (writeFile)\nfetch: ${ended} (fetch)`);
    expect(await download(id, '/late.txt')).toBeNull();
    const requested = await fetch(`${env.SERVICES_URL}/web/requests?containing=${marker}`);
    expect(await requested.json()).toEqual([]);
  });
});

/** A thread path as it travels in a URL: each segment percent-encoded as UTF-8. */
const urlPath = (path: string) => path.split('/').map(encodeURIComponent).join('/');

describe('a deny holds for every Unicode spelling of the path it names', () => {
  const deny = (pattern: string) => ({ permissions: [{ permission: 'fs.read', pattern, action: 'deny' }] });

  for (const { label, nfc, other } of EQUIVALENT_SPELLINGS) {
    it(`PERM-1, ATT-3: a deny on /${nfc}/* refuses read, bash cat, glob and grep of the file uploaded and named as ${label}`, async () => {
      const calls = [
        { name: 'read', arguments: { path: `/${other}/key.txt` } },
        { name: 'read', arguments: { path: `/${nfc}/key.txt` } },
        bash(`cat /${other}/key.txt`),
        bash(`cd /${other} && cat *; ls`),
        bash('cat /*/*; ls -R /; grep -r . /'),
        { name: 'glob', arguments: { pattern: `${other}/*` } },
        { name: 'glob', arguments: { pattern: '**/*' } },
        { name: 'grep', arguments: { pattern: '.', path: `/${other}` } },
        { name: 'grep', arguments: { pattern: 'SECRET' } },
      ];
      const { id, log, results } = await run(
        'guarded',
        { [urlPath(`/${other}/key.txt`)]: SECRET },
        calls,
        deny(`/${nfc}/*`),
      );
      expect(results).toHaveLength(calls.length);
      expect(JSON.stringify(log)).not.toContain(SECRET);
      for (const result of results.slice(0, 3)) {
        expect(result.tool_status, label).toBe('error');
        expect(result.content, label).toContain(`Denied by the session rule (fs.read, /${nfc}/*, deny)`);
      }
      for (const result of results.slice(3)) expect(result.content, label).not.toContain('key.txt');
      // One file, under its canonical name; over HTTP either spelling is that file.
      const keys = (await env.FILES.list({ prefix: `threads/${id}/` })).objects.map((object) => object.key);
      expect(keys).toEqual([`threads/${id}/${nfc}/key.txt`]);
      for (const spelling of [other, nfc]) {
        const response = await api(`/api/threads/${id}/files${urlPath(`/${spelling}/key.txt`)}`);
        expect(response.status).toBe(200);
        expect(decodeURIComponent(response.headers.get('x-file-path') ?? '')).toBe(`/${nfc}/key.txt`);
        expect(await response.text()).toBe(SECRET);
      }
    });

    it(`PERM-1: a deny written as ${label} refuses reading the file uploaded under its canonical name`, async () => {
      const calls = [
        { name: 'read', arguments: { path: `/${nfc}/key.txt` } },
        bash(`cat /${nfc}/key.txt`),
        { name: 'glob', arguments: { pattern: '**/*' } },
      ];
      const { log, results } = await run(
        'guarded',
        { [urlPath(`/${nfc}/key.txt`)]: SECRET },
        calls,
        deny(`/${other}/*`),
      );
      expect(JSON.stringify(log)).not.toContain(SECRET);
      expect(results[0]?.content).toContain(`Denied by the session rule (fs.read, /${nfc}/*, deny)`);
      expect(results[1]?.content).toContain(`Denied by the session rule (fs.read, /${nfc}/*, deny)`);
      expect(results[2]?.content).not.toContain('key.txt');
    });
  }

  it('PERM-1: a session rule holding an invisible or bidirectional character is refused (400); no thread is made', async () => {
    for (const { label, pattern } of invisibleRulePatterns()) {
      const response = await api('/api/threads', {
        method: 'POST',
        json: { agent: 'guarded', permissions: [{ permission: 'fs.read', pattern, action: 'deny' }] },
      });
      expect(response.status, label).toBe(400);
      const error = ((await response.json()) as { error: { code: string; message: string } }).error;
      expect(error.code, label).toBe('invalid_request');
      expect(error.message, label).toContain('invisible or bidirectional control character');
    }
  });
});
