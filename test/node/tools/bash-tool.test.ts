/**
 * The `bash` tool (LOCK-1, LOCK-5, LOCK-6, LOCK-7, DEF-7): one command line in just-bash over the
 * thread filesystem, driven through the engine loop by a scripted model's tool call, and directly
 * for the abort and output checks.
 */
import type { Message, ScriptedReply } from '@standardagents/spec';
import { getCommandNames } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { lintTools } from '../../../src/spec/tool-lint.js';
import { bash, SHELL_COMMANDS } from '../../../src/tools/bash/bash.js';
import { createHarness, type Harness } from '../../support/memory-store.js';

const decoder = new TextDecoder();

interface ShellHarness {
  h: Harness;
  /** Runs one turn in which the model calls `bash` once, and returns the tool message. */
  run(command: string, extra?: Record<string, unknown>): Promise<Message>;
  text(path: string): Promise<string | null>;
}

function shellHarness(): ShellHarness {
  const replies: ScriptedReply[] = [];
  const h = createHarness({
    builtinTools: { bash },
    prompt: { tools: ['bash'] },
    script: () => replies.shift() ?? { text: 'done' },
  });
  return {
    h,
    async run(command, extra = {}) {
      replies.push({ toolCalls: [{ name: 'bash', arguments: { command, ...extra } }] }, { text: 'ok' });
      await h.send('run it');
      return h.byRole('tool').at(-1) as Message;
    },
    async text(path) {
      const bytes = await h.files.read(path);
      return bytes ? decoder.decode(bytes) : null;
    },
  };
}

/** Calls the tool directly, with an execution whose signal the test controls. */
function direct(h: Harness, command: string, timeout_ms = 30_000, signal = new AbortController().signal) {
  const state = h.state({ stepCount: 1, currentSide: 'a', abortSignal: signal, toolCallId: 'c1', toolName: 'bash' });
  return bash.execute(state, { command, timeout_ms });
}

describe('bash tool', () => {
  it('LOCK-1: `echo hello > note.txt && cat note.txt` writes note.txt into the thread filesystem and prints hello', async () => {
    const { run, text, h } = shellHarness();
    const message = await run('echo hello > note.txt && cat note.txt');
    expect(message.tool_status).toBe('success');
    expect(message.content).toBe('hello\n');
    expect(await text('/note.txt')).toBe('hello\n');
    expect(h.fileStore.paths()).toEqual(['/note.txt']);
  });

  it('LOCK-1: ls lists the thread files and directories, and commands read what the client uploaded', async () => {
    const { run, h } = shellHarness();
    await h.files.write('/docs/a.md', '# A\nline two\n');
    await h.files.write('/readme.txt', 'hi\n');
    expect((await run('ls')).content).toBe('docs\nreadme.txt\n');
    expect((await run('ls /docs && cat docs/*.md | grep two && wc -c < readme.txt')).content).toBe(
      'a.md\nline two\n3\n',
    );
  });

  it('LOCK-1: a failing command is an error result carrying its exit code and output', async () => {
    const { run } = shellHarness();
    const missing = await run('echo before; cat missing.txt');
    expect(missing.tool_status).toBe('error');
    expect(missing.content).toContain('Exit code 1');
    expect(missing.content).toContain('before\ncat: missing.txt: No such file or directory\n');
    const exit = await run('exit 3');
    expect(exit.tool_status).toBe('error');
    expect(exit.content).toContain('Exit code 3');
    // LOCK-5: a command the simulated shell does not provide is outside bash's declared
    // capabilities, so it is refused before the shell runs at all.
    const unknown = await run('git status');
    expect(unknown.content).toContain('running "git status" is outside this agent\'s capabilities (shell.run)');
  });

  it('LOCK-1: the timeout stops a long command with a clear error', async () => {
    const { run } = shellHarness();
    const started = Date.now();
    const slept = await run('echo started; sleep 10', { timeout_ms: 100 });
    expect(slept.tool_status).toBe('error');
    expect(slept.content).toContain('Command timed out after 100 ms');
    expect(Date.now() - started).toBeLessThan(5_000);
    const busy = await run('while true; do :; done', { timeout_ms: 150 });
    expect(busy.tool_status).toBe('error');
    expect(busy.content).toContain('Command timed out after 150 ms');
  });

  it('LOCK-1: aborting the execution signal stops the command', async () => {
    const { h } = shellHarness();
    const controller = new AbortController();
    const running = direct(h, 'sleep 10', 30_000, controller.signal);
    setTimeout(() => controller.abort(new Error('The thread was stopped.')), 50);
    expect(await running).toEqual({ status: 'error', error: 'The thread was stopped.' });
  });

  it('LOCK-1: stdout and stderr interleave, and redirections inside the line keep their meaning', async () => {
    const { h } = shellHarness();
    expect(await direct(h, 'echo one; ls nope; echo three')).toEqual({
      status: 'success',
      result: 'one\nls: nope: No such file or directory\nthree\n',
    });
    const ordered = await direct(h, 'echo one; echo two >&2; echo three');
    expect(ordered).toEqual({ status: 'success', result: 'one\ntwo\nthree\n' });
    const quiet = await direct(h, 'f() { echo oops >&2; echo fine; }; f 2>/dev/null; (echo sub >&2) 2>/dev/null');
    expect(quiet).toEqual({ status: 'success', result: 'fine\n' });
    expect(await direct(h, 'echo x 2>&1 >/dev/null | cat; echo y > /dev/null')).toEqual({
      status: 'success',
      result: '(no output)',
    });
  });

  it('LOCK-1: each call is a fresh shell; files carry over, variables and cd do not', async () => {
    const { h } = shellHarness();
    expect(await direct(h, 'mkdir -p work && cd work && X=1 && echo data > f.txt && pwd')).toEqual({
      status: 'success',
      result: '/work\n',
    });
    expect(await direct(h, 'pwd; echo "x=$X"; cat work/f.txt')).toEqual({
      status: 'success',
      result: '/\nx=\ndata\n',
    });
  });

  it('LOCK-1: cp, mv, rm, appends and binary bytes act on the thread files', async () => {
    const { h } = shellHarness();
    const bytes = Uint8Array.from({ length: 256 }, (_, index) => index);
    await h.files.write('/a.bin', bytes);
    const result = await direct(
      h,
      'cp a.bin b.bin && cat a.bin | base64 | base64 -d > c.bin && mkdir -p d/e && mv b.bin d/e/ && ' +
        'for i in 1 2 3; do echo $i >> nums; done && rm a.bin && find . -type f | sort && wc -l < nums',
    );
    expect(result).toEqual({ status: 'success', result: './c.bin\n./d/e/b.bin\n./nums\n3\n' });
    expect(h.fileStore.paths()).toEqual(['/c.bin', '/d/e/b.bin', '/nums']);
    expect(await h.files.read('/c.bin')).toEqual(bytes);
    expect(await h.files.read('/d/e/b.bin')).toEqual(bytes);
    expect(await direct(h, 'rm -rf / ; ls')).toMatchObject({ status: 'success', result: 'c.bin\nd\nnums\n' });
  });

  it('LOCK-6: output is returned whole and the tool declares the 200 KB cap the runtime cuts at', async () => {
    const { h } = shellHarness();
    const result = await direct(h, 'seq 1 60000');
    const expected = `${Array.from({ length: 60_000 }, (_, index) => index + 1).join('\n')}\n`;
    expect(result).toEqual({ status: 'success', result: expected });
    expect(expected.length).toBeGreaterThan(200 * 1024);
    expect(bash.maxOutputBytes).toBe(200 * 1024);
  });

  it('LOCK-5, LOCK-7, DEF-7: bash declares its shell commands and workspace access, kind execute, and passes the lint', () => {
    expect(bash.acpKind).toBe('execute');
    expect(bash.requires.fs).toEqual({ read: ['{workspace}/**'], write: ['{workspace}/**'] });
    const commands = (bash.requires.shell ?? []).map((requirement) => requirement.cmd);
    expect(commands).toEqual(expect.arrayContaining(['ls', 'cat', 'grep', 'cd', 'echo', 'test', '[']));
    expect(commands).not.toContain('sqlite3');
    expect(bash.requires.shell?.every((requirement) => requirement.args === undefined)).toBe(true);
    // Every command just-bash has, less the one its Worker build lacks and the one whose library
    // backtracks on hostile HTML (html-to-markdown).
    expect([...SHELL_COMMANDS].sort()).toEqual(
      getCommandNames()
        .filter((name) => name !== 'sqlite3' && name !== 'html-to-markdown')
        .sort(),
    );
    expect(lintTools({ bash })).toEqual([]);
  });
});
