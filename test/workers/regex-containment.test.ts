/**
 * Catastrophic regular expressions through the HTTP API: a scripted model hands the runtime patterns
 * that backtrack for minutes in JavaScript's own engine (hostile corpus, "regular expressions") through
 * every road a model has to a regex engine: the `grep` and `glob` tools, the `bash` tool's grep, sed,
 * awk, find, expr and ls, and a `run_code` program's own regexes. Each call must end in a result or a
 * refusal naming the construct, never by a time limit, and another thread must answer afterwards.
 *
 * The old behaviour was a stall of the whole workerd process, so the test timeout is generous: a
 * stall then shows as this file's timeout rather than as a hang of the whole run.
 */
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { api, createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import {
  CATASTROPHIC_GLOBS,
  CATASTROPHIC_PROGRAMS,
  CATASTROPHIC_REGEXES,
  catastrophicShellLines,
  UNSUPPORTED_REGEXES,
} from '../support/hostile-corpus.js';

const GENEROUS_MS = 240_000;

type Call = { name: string; arguments: Record<string, unknown> };

const toolMessages = (log: Message[]) => log.filter((message) => message.role === 'tool' && message.depth === 0);

/** A thread of `agent` whose model makes `calls` one after another, then answers. */
async function run(agent: string, calls: Call[]): Promise<Message[]> {
  const script = directive([...calls.map((call) => ({ toolCalls: [call] })), { text: 'done' }]);
  const log = await settled(await createThread({ agent, messages: [{ content: script }] }));
  const results = toolMessages(log);
  expect(results).toHaveLength(calls.length);
  return results;
}

/** Another thread, made before the hostile one: it must still answer afterwards. */
async function bystander(): Promise<() => Promise<void>> {
  const id = await createThread({ agent: 'fs_tools' });
  return async () => {
    const response = await api(`/api/threads/${id}`);
    expect(response.status).toBe(200);
    expect(((await response.json()) as { status: string }).status).toBe('idle');
  };
}

const write = (path: string, content: string): Call => ({ name: 'write', arguments: { path, content } });

describe('regular expressions a model writes', () => {
  it(
    'grep answers every catastrophic pattern with its result, refuses what cannot run in linear time by name, and another thread answers afterwards',
    async () => {
      const check = await bystander();
      const files = CATASTROPHIC_REGEXES.map((_, index) => `/re/${index}.txt`);
      const results = await run('fs_tools', [
        // One line, no newline after it: an empty last line would match the patterns that match nothing.
        ...CATASTROPHIC_REGEXES.map((entry, index) => write(files[index] as string, entry.line)),
        ...CATASTROPHIC_REGEXES.map((entry, index) => ({
          name: 'grep',
          arguments: { pattern: entry.pattern, path: files[index] },
        })),
        ...UNSUPPORTED_REGEXES.map((entry) => ({ name: 'grep', arguments: { pattern: entry.pattern, path: '/re' } })),
      ]);
      const greps = results.slice(CATASTROPHIC_REGEXES.length);
      CATASTROPHIC_REGEXES.forEach((entry, index) => {
        const result = greps[index];
        expect(result?.tool_status, entry.label).toBe('success');
        if (entry.matches) expect(result?.content, entry.label).toBe(`${files[index]}:1:${entry.line}`);
        else expect(result?.content, entry.label).toContain('No matches');
      });
      UNSUPPORTED_REGEXES.forEach((entry, index) => {
        const result = greps[CATASTROPHIC_REGEXES.length + index];
        expect(result?.tool_status, entry.pattern).toBe('error');
        expect(result?.content, entry.pattern).toMatch(entry.names);
      });
      await check();
    },
    GENEROUS_MS,
  );

  it(
    'glob and grep answer catastrophic globs over long file names, and another thread answers afterwards',
    async () => {
      const check = await bystander();
      const results = await run('fs_tools', [
        ...CATASTROPHIC_GLOBS.map((entry) => write(`/names/${entry.name}`, 'x\n')),
        ...CATASTROPHIC_GLOBS.map((entry) => ({ name: 'glob', arguments: { pattern: entry.glob, path: '/names' } })),
        ...CATASTROPHIC_GLOBS.map((entry) => ({ name: 'grep', arguments: { pattern: 'x', glob: entry.glob } })),
        { name: 'glob', arguments: { pattern: '!(a)', path: '/names' } },
      ]);
      const answers = results.slice(CATASTROPHIC_GLOBS.length);
      for (const [index, answer] of answers.slice(0, -1).entries()) {
        expect(answer.tool_status, String(index)).toBe('success');
        expect(answer.content, String(index)).toMatch(/^No (files match|matches)/);
      }
      expect(answers.at(-1)?.tool_status).toBe('error');
      expect(answers.at(-1)?.content).toContain('negation !(...) is not supported');
      await check();
    },
    GENEROUS_MS,
  );

  it(
    "the shell's regex and glob engines answer catastrophic patterns without a time limit stopping them",
    async () => {
      const check = await bystander();
      const name = CATASTROPHIC_GLOBS.find((entry) => entry.glob.startsWith('*a*'))?.name as string;
      const lines = catastrophicShellLines('/re/line.txt');
      const results = await run('shell', [
        {
          name: 'bash',
          arguments: {
            command: `mkdir -p re && printf '%s\\n' '${CATASTROPHIC_REGEXES[0]?.line}' > re/line.txt && touch ${name}`,
          },
        },
        ...lines.map((command) => ({ name: 'bash', arguments: { command } })),
      ]);
      expect(results[0]?.tool_status).toBe('success');
      lines.forEach((command, index) => {
        const result = results[index + 1];
        expect(['success', 'error'], command).toContain(result?.tool_status);
        expect(result?.content ?? '', command).not.toMatch(/timed out|stopped/i);
      });
      await check();
    },
    GENEROUS_MS,
  );

  it(
    "a program's regexes, by every road to the engine, end in a value or an error naming the construct, never a time limit",
    async () => {
      const check = await bystander();
      const line = CATASTROPHIC_REGEXES[0]?.line as string;
      const results = await run(
        'sandbox',
        CATASTROPHIC_PROGRAMS.map((program) => ({
          name: 'run_code',
          arguments: { code: `const input = ${JSON.stringify(line)};\n${program.code}` },
        })),
      );
      CATASTROPHIC_PROGRAMS.forEach((program, index) => {
        const result = results[index];
        expect(['success', 'error'], program.label).toContain(result?.tool_status);
        expect(result?.content ?? '', program.label).not.toMatch(/did not finish|time limit|ticks|isolate failed/i);
        if (result?.tool_status === 'error') expect(result.content, program.label).toMatch(/regular expression|RegExp/);
      });
      const lookahead = results[CATASTROPHIC_PROGRAMS.findIndex((program) => program.label === 'a lookahead')];
      expect(lookahead?.tool_status).toBe('error');
      expect(lookahead?.content).toContain('lookahead (?=');
      expect(results[0]).toMatchObject({ tool_status: 'success', content: 'false' });
      const urlPattern = results[CATASTROPHIC_PROGRAMS.findIndex((program) => program.label.startsWith('URLPattern'))];
      expect(urlPattern).toMatchObject({ tool_status: 'success', content: 'no URLPattern' });
      await check();
    },
    GENEROUS_MS,
  );
});
