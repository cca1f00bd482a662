/**
 * Containment through the layer a model reaches (PERM-1, PERM-4, ATT-3, EXE-6): a scripted model
 * calls the real built-in tools — `bash` over just-bash, `read`, `write`, `edit`, `glob`, `grep` — on
 * a thread whose rules deny something, with every hostile spelling and every indirection of the
 * corpus. Each case asserts "refused and nothing changed": the files are as they were, and nothing
 * the rule protects appears in any output or any other file.
 */

import { gunzipSync } from 'node:zlib';
import type { Message, PermissionRule, ScriptedReply } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../../../../src/spec/index.js';
import { bash } from '../../../../src/tools/bash/bash.js';
import { edit } from '../../../../src/tools/files/edit.js';
import { glob } from '../../../../src/tools/files/glob.js';
import { grep } from '../../../../src/tools/files/grep.js';
import { read } from '../../../../src/tools/files/read.js';
import { write } from '../../../../src/tools/files/write.js';
import { task } from '../../../../src/tools/subagents/task.js';
import { webFetch } from '../../../../src/tools/web-fetch/web-fetch.js';
import {
  EQUIVALENT_SPELLINGS,
  INVISIBLE_REASON,
  invisiblePaths,
  invisibleRulePatterns,
  LOOK_ALIKE_NAMES,
  OUTSIDE_WRITE_LINES,
  RM_DOCS_LINES,
  SECRET_READ_LINES,
  spellingsOf,
  UNCHECKABLE_LINES,
} from '../../../support/hostile-corpus.js';
import { createHarness, deferred, type Harness, settle } from '../../../support/memory-store.js';

const SECRET = 'SECRET-CONTENT-7f3a9c';
const SECRET_FILE = `${SECRET}\n`;
const ALLOW: PermissionRule = { permission: '*', pattern: '*', action: 'allow' };
const decoder = new TextDecoder();

interface Contained {
  h: Harness;
  /** One turn in which the model makes this call; returns its tool message. */
  call(name: string, args: Record<string, unknown>): Promise<Message>;
  /** Every file of the thread with its text. */
  snapshot(): Promise<Record<string, string>>;
}

async function contained(rules: PermissionRule[], files: Record<string, string>): Promise<Contained> {
  const replies: ScriptedReply[] = [];
  const h = createHarness({
    builtinTools: { bash, read, write, edit, glob, grep },
    prompt: { tools: ['bash', 'read', 'write', 'edit', 'glob', 'grep'] },
    permissions: rules,
    script: () => replies.shift() ?? { text: 'done' },
    info: { headless: true },
  });
  for (const [path, text] of Object.entries(files)) await h.files.write(path, text);
  const snapshot = async () => {
    const out: Record<string, string> = {};
    for (const path of h.fileStore.paths()) out[path] = decoder.decode((await h.files.read(path)) ?? new Uint8Array());
    return out;
  };
  return {
    h,
    snapshot,
    async call(name, args) {
      replies.push({ toolCalls: [{ name, arguments: args }] }, { text: 'ok' });
      await h.send('go');
      return h.byRole('tool').at(-1) as Message;
    },
  };
}

const DOCS = { '/docs/a.txt': 'alpha', '/docs/b/c.txt': 'gamma' };

/** A file's text, decompressed when it is gzip. */
async function contentOf(h: Harness, path: string): Promise<string> {
  const bytes = (await h.files.read(path)) ?? new Uint8Array();
  if (path.endsWith('.gz') && bytes.byteLength > 0) {
    try {
      return decoder.decode(gunzipSync(bytes));
    } catch {
      return '';
    }
  }
  return decoder.decode(bytes);
}

/**
 * Whether a command's output shows the secret file: its content (as is, base64, or spaced out by
 * `od -c`), or its name where the line did not name it (a listing found it).
 */
function reveals(line: string, output: string): boolean {
  const spaced = new RegExp(SECRET.slice(0, 12).split('').join('\\s*'));
  return (
    output.includes(SECRET) ||
    output.includes(btoa(SECRET)) ||
    spaced.test(output) ||
    (!line.includes('key.txt') && output.includes('key.txt'))
  );
}

describe('PERM-4: a command rule holds however the command is spelled or run', () => {
  it('PERM-4: under (bash, rm -rf *, deny) every line of the corpus is refused and /docs keeps its files', async () => {
    for (const line of RM_DOCS_LINES) {
      const c = await contained([ALLOW, { permission: 'bash', pattern: 'rm -rf *', action: 'deny' }], DOCS);
      const before = await c.snapshot();
      const result = await c.call('bash', { command: line });
      expect(result.tool_status, line).toBe('error');
      expect(result.content, line).toMatch(
        /Denied by the project rule \(bash, rm -rf \*, deny\)|outside this agent's capabilities/,
      );
      const after = await c.snapshot();
      for (const [path, text] of Object.entries(DOCS)) expect(after[path], `${line}: ${path}`).toBe(text);
      expect(
        Object.keys(after).filter((path) => !(path in before) && path !== '/run.sh'),
        line,
      ).toEqual([]);
    }
  });

  it('PERM-4: control: without the rule, every line of the corpus does remove /docs', async () => {
    const kept: string[] = [];
    for (const line of RM_DOCS_LINES) {
      const c = await contained([ALLOW], DOCS);
      await c.call('bash', { command: line });
      if (Object.keys(await c.snapshot()).some((path) => path.startsWith('/docs/'))) kept.push(line);
    }
    expect(kept).toEqual([]);
  });

  it('PERM-4: the rule is about that command only: removing one file without -r still works', async () => {
    const c = await contained([ALLOW, { permission: 'bash', pattern: 'rm -rf *', action: 'deny' }], DOCS);
    const result = await c.call('bash', { command: 'rm /docs/a.txt && ls /docs' });
    expect(result).toMatchObject({ tool_status: 'success', content: 'b\n' });
  });
});

describe('PERM-1: a read rule holds for every tool, spelling and command', () => {
  const files = { '/secret/key.txt': SECRET_FILE, '/docs/a.txt': 'alpha' };
  const rules = [ALLOW, { permission: 'fs.read', pattern: '/secret/*', action: 'deny' as const }];

  it('PERM-1: read refuses every spelling of the path before anything runs', async () => {
    for (const path of spellingsOf('secret', 'key.txt')) {
      const c = await contained(rules, files);
      const result = await c.call('read', { path });
      expect(result.tool_status, path).toBe('error');
      expect(result.content, path).toContain(
        'Denied by the project rule (fs.read, /secret/*, deny) for fs.read "/secret/key.txt"',
      );
    }
  });

  it('PERM-1: no shell command of the corpus shows the file, its name under /secret, or copies it', async () => {
    for (const line of SECRET_READ_LINES) {
      const c = await contained(rules, files);
      const result = await c.call('bash', { command: line });
      expect(reveals(line, result.content ?? ''), `${line} => ${result.content}`).toBe(false);
      // A redirect may create its (allowed) target; nothing may carry the secret into it.
      for (const path of c.h.fileStore.paths()) {
        if (path === '/secret/key.txt') continue;
        expect(reveals(line, await contentOf(c.h, path)), `${line}: ${path}`).toBe(false);
      }
    }
  });

  it('PERM-1: control: without the rule, every line of the corpus reveals the file, its name, or copies it', async () => {
    const harmless: string[] = [];
    for (const line of SECRET_READ_LINES) {
      const c = await contained([ALLOW], files);
      const result = await c.call('bash', { command: line });
      let copied = false;
      for (const path of c.h.fileStore.paths()) {
        if (path !== '/secret/key.txt' && (await contentOf(c.h, path)).includes(SECRET)) copied = true;
      }
      if (!reveals(line, result.content ?? '') && !copied) harmless.push(`${line} => ${result.content}`);
    }
    expect(harmless).toEqual([]);
  });

  it('PERM-1: a refused shell read says why, naming the rule', async () => {
    const c = await contained(rules, files);
    const result = await c.call('bash', { command: 'cat /secret/key.txt' });
    expect(result.tool_status).toBe('error');
    expect(result.content).toContain(
      'Denied by the project rule (fs.read, /secret/*, deny) for fs.read "/secret/key.txt"',
    );
  });

  it('PERM-1: glob and grep never reveal names or lines under the denied folder, whatever the pattern', async () => {
    const c = await contained(rules, files);
    for (const pattern of ['**/*', '*/*', '**/key*', '/secret/*', 'secret/**', '**/*.txt', '{secret,docs}/*']) {
      const listed = await c.call('glob', { pattern });
      expect(listed.content, pattern).not.toContain('key.txt');
    }
    for (const args of [{ pattern: '.' }, { pattern: 'SECRET' }, { pattern: '.', path: '/', glob: '**/key*' }]) {
      const found = await c.call('grep', args);
      expect(found.content, JSON.stringify(args)).not.toContain(SECRET);
      expect(found.content, JSON.stringify(args)).not.toContain('key.txt');
    }
    const direct = await c.call('grep', { pattern: '.', path: 'secret//key.txt' });
    expect(direct.tool_status).toBe('error');
    expect(direct.content).toContain('Denied by the project rule (fs.read, /secret/*, deny)');
  });
});

describe('PERM-1: a write rule holds for every tool, spelling and command', () => {
  const files = { '/outside/existing.txt': 'original', '/docs/a.txt': 'alpha' };
  const rules = [ALLOW, { permission: 'fs.write', pattern: '/outside/*', action: 'deny' as const }];

  it('PERM-1: write and edit refuse every spelling of a path under the denied folder', async () => {
    for (const path of spellingsOf('outside', 'existing.txt')) {
      const c = await contained(rules, files);
      expect((await c.call('write', { path, content: 'changed' })).tool_status, path).toBe('error');
      expect((await c.call('edit', { path, old_string: 'original', new_string: 'changed' })).tool_status, path).toBe(
        'error',
      );
      expect(await c.snapshot(), path).toEqual(files);
    }
  });

  it('PERM-1: control: without the rule, every line of the corpus changes /outside', async () => {
    const harmless: string[] = [];
    for (const line of OUTSIDE_WRITE_LINES) {
      const c = await contained([ALLOW], files);
      await c.call('bash', { command: line });
      const outside = Object.entries(await c.snapshot()).filter(([path]) => path.startsWith('/outside/'));
      if (JSON.stringify(outside) === JSON.stringify([['/outside/existing.txt', 'original']])) harmless.push(line);
    }
    expect(harmless).toEqual([]);
  });

  it('PERM-1: no shell command of the corpus writes, changes or removes anything under /outside', async () => {
    for (const line of OUTSIDE_WRITE_LINES) {
      const c = await contained(rules, files);
      const result = await c.call('bash', { command: line });
      expect(result.tool_status, line).toBe('error');
      const after = await c.snapshot();
      expect(after['/outside/existing.txt'], line).toBe('original');
      expect(
        Object.keys(after).filter((path) => path.startsWith('/outside/')),
        line,
      ).toEqual(['/outside/existing.txt']);
      // `mv` copies, then removes: a refused copy removes nothing.
      expect(after['/docs/a.txt'], line).toBe('alpha');
    }
  });
});

describe('PERM-4: what cannot be checked before it runs is refused', () => {
  it('PERM-4: a redirect to a target known only at run time is refused even when everything is allowed', async () => {
    for (const line of UNCHECKABLE_LINES) {
      const c = await contained([ALLOW], { '/docs/a.txt': 'alpha' });
      const result = await c.call('bash', { command: line });
      expect(result.tool_status, line).toBe('error');
      expect(result.content, line).toContain('known only at run time');
      expect(c.h.fileStore.paths(), line).toEqual(['/docs/a.txt']);
    }
  });
});

describe('PERM-1, PERM-2: no rule means ask, and ask means deny on a headless thread', () => {
  it('PERM-2: an agent with no rules cannot run rm -rf on a headless thread; the refusal names the rule to add', async () => {
    const c = await contained([], DOCS);
    const result = await c.call('bash', { command: 'rm -rf /docs' });
    expect(result.tool_status).toBe('error');
    expect(result.content).toContain(`add { permission: 'bash', pattern: "rm -rf /docs", action: 'allow' }`);
    expect(result.content).toContain('this thread is headless (no human to ask), so it is denied');
    expect(await c.snapshot()).toEqual(DOCS);
  });

  it('PERM-1: the session-internal tools need no rule', async () => {
    const h = createHarness({
      builtinTools: { todo: (await import('../../../../src/tools/session/todo.js')).todo },
      prompt: { tools: ['todo'] },
      permissions: [],
      script: [{ toolCalls: [{ name: 'todo', arguments: { todos: [] } }] }, { text: 'ok' }],
      info: { headless: true },
    });
    await h.send('go');
    expect(h.byRole('tool')[0]?.tool_status).toBe('success');
  });
});

describe('EXE-6: a call that ended can no longer change the thread', () => {
  it('EXE-6: a tool that ignores its abort signal gets its timeout result, and its later write is refused', async () => {
    const release = deferred<void>();
    const attempt = deferred<unknown>();
    const stubborn = defineTool({
      description: 'Write a file late, ignoring the abort signal',
      timeout: 30,
      execute: async (state) => {
        await release.promise;
        const outcomes = await Promise.allSettled([
          state.writeFile('/late.txt', 'late'),
          state.injectMessage({ role: 'user', content: 'late message' }),
          state.setValue('late', true),
          Promise.resolve().then(() => state.emit('late', {})),
        ]);
        attempt.resolve(outcomes);
        return { status: 'success', result: 'wrote late' };
      },
    });
    const h = createHarness({
      tools: { stubborn },
      script: [{ toolCalls: [{ name: 'stubborn', arguments: {} }] }, { text: 'moved on' }],
    });
    await h.send('go');
    expect(h.byRole('tool')[0]).toMatchObject({ tool_status: 'error' });
    expect(h.byRole('tool')[0]?.content).toContain('timed out after 30 ms');
    const messages = h.store.messages().length;
    release.resolve();
    const outcomes = (await attempt.promise) as PromiseSettledResult<unknown>[];
    await settle();
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      expect(String((outcome as PromiseRejectedResult).reason)).toContain('has ended (it timed out)');
    }
    expect(h.fileStore.paths()).toEqual([]);
    expect(h.store.messages()).toHaveLength(messages);
    expect(await h.state().getValue('late')).toBeNull();
    expect(h.frames.some((frame) => frame.type === 'event')).toBe(false);
  });
});

describe('SUB-2, LOCK-1: task starts only agents the prompt offers', () => {
  it('LOCK-1: task refuses an agent the calling prompt does not list, naming those it may start', async () => {
    const h = createHarness({
      builtinTools: { task },
      prompt: { tools: ['task'] },
      script: [
        { toolCalls: [{ name: 'task', arguments: { description: 'x', prompt: 'go', agent: 'admin' } }] },
        { text: 'ok' },
      ],
      info: { headless: true },
    });
    await h.send('go');
    const [result] = h.byRole('tool');
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain('"admin" is not an agent this prompt can start; it can start: test_agent');
    expect(h.spawned).toEqual([]);
  });
});

describe('PERM-1: host rules hold on every redirect hop', () => {
  it('PERM-1: web_fetch of an allowed host that redirects to a denied one is refused at the hop; nothing reaches it', async () => {
    const sent: string[] = [];
    const h = createHarness({
      builtinTools: { web_fetch: webFetch },
      prompt: { tools: ['web_fetch'] },
      permissions: [ALLOW, { permission: 'net.fetch', pattern: '*.evil.example', action: 'deny' }],
      transport: async (url) => {
        sent.push(url.href);
        if (url.hostname === 'docs.example') {
          return new Response(null, { status: 302, headers: { location: 'https://API.Evil.Example./collect' } });
        }
        return new Response('collected', { headers: { 'content-type': 'text/plain' } });
      },
      script: [{ toolCalls: [{ name: 'web_fetch', arguments: { url: 'https://docs.example/page' } }] }, { text: 'ok' }],
      info: { headless: true },
    });
    await h.send('go');
    const [result] = h.byRole('tool');
    expect(result?.tool_status).toBe('error');
    expect(result?.content).toContain(
      'Denied by the project rule (net.fetch, *.evil.example, deny) for net.fetch "api.evil.example"',
    );
    expect(sent).toEqual(['https://docs.example/page']);
  });
});

describe('state.authorize', () => {
  it('PERM-4: a tool acting outside state asks the gate first, and a denied act throws', async () => {
    const seen: string[] = [];
    const act = defineTool({
      description: 'Run a command through a client of its own',
      args: z.object({ argv: z.array(z.string()) }),
      execute: async (state, args) => {
        state.authorize({ argv: args.argv });
        seen.push(args.argv.join(' '));
        return { status: 'success', result: 'ran' };
      },
    });
    const h = createHarness({
      tools: { act },
      permissions: [ALLOW, { permission: 'act', pattern: 'git push *', action: 'deny' }],
      script: [
        { toolCalls: [{ name: 'act', arguments: { argv: ['git', 'push', '--force', 'origin'] } }] },
        { toolCalls: [{ name: 'act', arguments: { argv: ['git', 'status'] } }] },
        { text: 'ok' },
      ],
    });
    await h.send('go');
    const [pushed, status] = h.byRole('tool');
    expect(pushed?.content).toContain('Denied by the project rule (act, git push *, deny)');
    expect(status?.tool_status).toBe('success');
    expect(seen).toEqual(['git status']);
  });
});

describe('PERM-1, ATT-3: a rule holds for every Unicode spelling of what it names', () => {
  const deny = (permission: string, pattern: string): PermissionRule => ({ permission, pattern, action: 'deny' });

  /**
   * Every way a tool could show the file under `dir`: read and cat (the refusal may name the path
   * they named), then listings and searches, which must not even show its name.
   */
  async function attempts(c: Contained, dir: string): Promise<Message[]> {
    return [
      await c.call('read', { path: `/${dir}/key.txt` }),
      await c.call('bash', { command: `cat /${dir}/key.txt` }),
      await c.call('bash', { command: `cd /${dir} && cat * && ls` }),
      await c.call('bash', { command: 'cat /*/*; ls -R /; find / -type f; grep -r . /' }),
      await c.call('glob', { pattern: `${dir}/*` }),
      await c.call('glob', { pattern: '**/*' }),
      await c.call('grep', { pattern: '.', path: `/${dir}` }),
      await c.call('grep', { pattern: 'SECRET' }),
    ];
  }

  function expectHidden(results: Message[], label: string): void {
    for (const [index, result] of results.entries()) {
      expect(result.content, `${label} #${index}`).not.toContain(SECRET);
      if (index >= 2) expect(result.content, `${label} #${index}`).not.toContain('key.txt');
    }
    // read and cat say why.
    expect(results[0]?.content, label).toContain('Denied by the project rule (fs.read,');
    expect(results[1]?.content, label).toContain('Denied by the project rule (fs.read,');
  }

  for (const { label, nfc, other } of EQUIVALENT_SPELLINGS) {
    it(`PERM-1: a deny on /${nfc}/* holds for a file written and read as ${label}`, async () => {
      const c = await contained([ALLOW, deny('fs.read', `/${nfc}/*`)], { [`/${other}/key.txt`]: SECRET_FILE });
      // One file, under its canonical (NFC) name.
      expect(c.h.fileStore.paths()).toEqual([`/${nfc}/key.txt`]);
      expectHidden(await attempts(c, other), label);
      expectHidden(await attempts(c, nfc), label);
    });

    it(`PERM-1: a deny written as ${label} holds for the canonical path`, async () => {
      const c = await contained([ALLOW, deny('fs.read', `/${other}/*`)], { [`/${nfc}/key.txt`]: SECRET_FILE });
      expectHidden(await attempts(c, nfc), label);
      expectHidden(await attempts(c, other), label);
    });

    it(`PERM-1: write and bash under a write deny on /${nfc}/* change nothing when spelled as ${label}`, async () => {
      const c = await contained([ALLOW, deny('fs.write', `/${nfc}/*`)], { [`/${nfc}/key.txt`]: 'original' });
      const results = [
        await c.call('write', { path: `/${other}/key.txt`, content: 'changed' }),
        await c.call('bash', { command: `echo changed > /${other}/key.txt` }),
        await c.call('bash', { command: `rm -rf /${other}` }),
      ];
      for (const result of results) expect(result.tool_status, label).toBe('error');
      expect(await c.snapshot()).toEqual({ [`/${nfc}/key.txt`]: 'original' });
    });

    it(`PERM-4: a command rule about /${nfc} holds for the command spelled as ${label}`, async () => {
      const c = await contained([ALLOW, deny('bash', `rm -rf /${nfc}`)], { [`/${nfc}/key.txt`]: 'kept' });
      const result = await c.call('bash', { command: `rm -rf /${other}` });
      expect(result.tool_status, label).toBe('error');
      expect(result.content, label).toContain(`Denied by the project rule (bash, rm -rf /${nfc}, deny)`);
      expect(await c.snapshot()).toEqual({ [`/${nfc}/key.txt`]: 'kept' });
    });
  }

  for (const { label, name } of LOOK_ALIKE_NAMES) {
    it(`ATT-3: /${name}/key.txt (${label}) is another name: it reaches nothing under /secret`, async () => {
      const c = await contained([ALLOW, deny('fs.read', '/secret/*')], { '/secret/key.txt': SECRET_FILE });
      for (const result of [
        await c.call('read', { path: `/${name}/key.txt` }),
        await c.call('bash', { command: `cat /${name}/key.txt` }),
        await c.call('glob', { pattern: `${name}/*` }),
      ]) {
        expect(result.content, label).not.toContain(SECRET);
      }
      expect(c.h.fileStore.paths()).toEqual(['/secret/key.txt']);
    });
  }

  it('PERM-4: a full-width command name is no command: ｒｍ -rf /docs removes nothing', async () => {
    const c = await contained([ALLOW, deny('bash', 'rm -rf *')], DOCS);
    const result = await c.call('bash', { command: '\uff52\uff4d -rf /docs' });
    expect(result.tool_status).toBe('error');
    expect(result.content).toMatch(/command not found|outside this agent's capabilities/);
    expect(await c.snapshot()).toEqual(DOCS);
  });

  it('PERM-1: a rule written with an invisible or bidirectional character is a definition error', () => {
    for (const { label, pattern } of invisibleRulePatterns()) {
      expect(() => createHarness({ permissions: [deny('fs.read', pattern)] }), label).toThrow(
        /the project permissions: the rule \(fs\.read, .*\) holds an invisible or bidirectional control character \(U\+[0-9A-F]{4,5}\)/,
      );
    }
  });

  it('ATT-3: no tool writes a name with an invisible or bidirectional character; nothing is stored', async () => {
    for (const { label, path } of invisiblePaths('x.txt')) {
      const c = await contained([ALLOW], DOCS);
      const results = [
        await c.call('write', { path, content: 'hidden' }),
        await c.call('bash', { command: `echo hidden > '/${path}'` }),
        await c.call('bash', { command: `touch '/${path}'; cp /docs/a.txt '/${path}'` }),
      ];
      for (const result of results) {
        expect(result.tool_status, label).toBe('error');
        expect(result.content, label).toMatch(INVISIBLE_REASON);
      }
      expect(await c.snapshot(), label).toEqual(DOCS);
    }
  });
});

describe('PERM-1: host rules written in Unicode match the host a request names', () => {
  async function fetchUnder(rules: PermissionRule[], url: string) {
    const sent: string[] = [];
    const h = createHarness({
      builtinTools: { web_fetch: webFetch },
      prompt: { tools: ['web_fetch'] },
      permissions: rules,
      transport: async (target) => {
        sent.push(target.href);
        return new Response('page', { headers: { 'content-type': 'text/plain' } });
      },
      script: [{ toolCalls: [{ name: 'web_fetch', arguments: { url } }] }, { text: 'ok' }],
      info: { headless: true },
    });
    await h.send('go');
    return { result: h.byRole('tool')[0] as Message, sent };
  }

  for (const [pattern, url] of [
    ['b\u00fccher.example', 'https://b\u00fccher.example/'],
    ['B\u00dcCHER.example', 'https://xn--bcher-kva.example/'],
    ['*.b\u00fccher.example', 'https://www.bu\u0308cher.example/'],
    ['\uff42\u00fc\uff43\uff48\uff45\uff52.example', 'https://b\u00fccher.example/'],
    ['b\u00fc*.example', 'https://b\u00fccher.example/'],
  ]) {
    it(`PERM-1: (net.fetch, ${pattern}, deny) refuses ${url}; nothing is sent`, async () => {
      const { result, sent } = await fetchUnder(
        [ALLOW, { permission: 'net.fetch', pattern: pattern as string, action: 'deny' }],
        url as string,
      );
      expect(result.tool_status).toBe('error');
      expect(result.content).toContain('Denied by the project rule (net.fetch,');
      expect(sent).toEqual([]);
    });
  }

  it('LOCK-5: web_fetch of a name that spells a loopback address (127.0.0.1.nip.io) is refused; nothing is sent', async () => {
    const { result, sent } = await fetchUnder([ALLOW], 'http://127.0.0.1.nip.io/admin');
    expect(result.tool_status).toBe('error');
    expect(result.content).toContain('127.0.0.1.nip.io is a name that spells 127.0.0.1, a loopback address');
    expect(sent).toEqual([]);
  });

  it('PERM-1: (net.fetch, bücher.example, allow) allows that host, and a wildcard mixed with Unicode allows nothing', async () => {
    const allowed = await fetchUnder(
      [{ permission: 'web_fetch', pattern: 'b\u00fccher.example', action: 'allow' }],
      'https://xn--bcher-kva.example/',
    );
    expect(allowed.result.tool_status).toBe('success');
    const mixed = await fetchUnder(
      [{ permission: 'web_fetch', pattern: 'b\u00fc*.example', action: 'allow' }],
      'https://b\u00fccher.example/',
    );
    expect(mixed.result.tool_status).toBe('error');
    expect(mixed.sent).toEqual([]);
  });
});
