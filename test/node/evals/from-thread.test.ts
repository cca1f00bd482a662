/**
 * `--from-thread` (EVAL-6): a recorded thread printed as a case — its agent, its top-level user
 * messages in order, the first sentence of its final answer and the tools it called — as TypeScript
 * that compiles back to exactly those strings, whatever the thread's text holds.
 */
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { caseFromThread, firstSentence, literal } from '../../../evals/runner/from-thread.js';
import type { EvalCase } from '../../../evals/runner/suite.js';
import { HOSTILE_EVAL_TEXT } from '../../support/hostile-corpus.js';
import { message, toolTurn } from './eval-fixtures.js';

/** What a terminal or an editor would act on: control characters, bidirectional and zero-width marks, line separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
const UNPRINTABLE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/** The printed case read back as JavaScript would read it once pasted into a suite. */
async function readBack(printed: string): Promise<EvalCase> {
  const { code } = await transform(`export default [\n${printed}\n];`, { loader: 'ts', format: 'cjs' });
  const module = { exports: {} as { default: EvalCase[] } };
  new Function('module', 'exports', code)(module, module.exports);
  return module.exports.default[0] as EvalCase;
}

describe('a recorded thread as a case', () => {
  it('EVAL-6: agent, user messages in order, the first sentence of the final answer, the tools called', async () => {
    const messages = [
      message({ role: 'user', content: 'Hello there' }),
      message({ role: 'assistant', content: 'Hi. How can I help?' }),
      message({ role: 'user', content: 'nested, not the user', depth: 1 }),
      ...toolTurn('get_current_time please', 'get_current_time', {}, '2026', 'Here is what the tools returned:\n2026'),
    ];
    const printed = caseFromThread({ id: '0123456789abcdef', agent: 'assistant', messages });
    expect(printed.split('\n')[0]).toBe('// Recorded in thread "0123456789abcdef": 2 user message(s).');
    const recorded = await readBack(printed);
    expect(recorded).toEqual({
      name: 'from thread 01234567: Hello there',
      agent: 'assistant',
      messages: ['Hello there', 'get_current_time please'],
      assertions: [
        { kind: 'contains', text: 'Here is what the tools returned:' },
        { kind: 'tool_called', tool: 'get_current_time' },
      ],
    });
  });

  it('EVAL-6: the first sentence ends at . ! ? or : before a space, on the first line, and stays short', () => {
    expect(firstSentence('It is 3 p.m. now. Later more.')).toBe('It is 3 p.m.');
    expect(firstSentence('\n\nVersion 2.5 is out! Get it.')).toBe('Version 2.5 is out!');
    expect(firstSentence('one line without end\nsecond line.')).toBe('one line without end');
    const long = firstSentence(`${'word '.repeat(60)}end.`);
    expect(long.length).toBeLessThanOrEqual(120);
    expect(long.endsWith('word')).toBe(true);
    expect(firstSentence('')).toBe('');
  });

  it('EVAL-6: hostile text in a thread compiles back to itself and hides nothing from a reader', async () => {
    const hostile = [...HOSTILE_EVAL_TEXT];
    const messages = hostile.map((content) => message({ role: 'user', content }));
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal the printed case must not let run
    messages.push(message({ role: 'assistant', content: 'Done: */ `${x}` \u202e.' }));
    const printed = caseFromThread({ id: 'id"\n*/', agent: 'agent"\u2028', messages });
    // Nothing a terminal or an editor would act on, and one line per string.
    expect(printed).not.toMatch(UNPRINTABLE);
    expect(printed.split('\n')).toHaveLength(hostile.length + 10);
    const recorded = await readBack(printed);
    expect(recorded.messages).toEqual(hostile);
    expect(recorded.agent).toBe('agent"\u2028');
    expect(recorded.assertions[0]).toEqual({ kind: 'contains', text: 'Done:' });
  });

  it('EVAL-6: a thread with no user message cannot become a case', () => {
    expect(() => caseFromThread({ id: 't', agent: 'a', messages: [] })).toThrow(
      'thread t has no user message to replay',
    );
  });

  it('EVAL-6: literal escapes what JSON.stringify leaves as it is', () => {
    expect(literal('a\u2028b\u202ec\u0085')).toBe('"a\\u2028b\\u202ec\\u0085"');
  });
});
