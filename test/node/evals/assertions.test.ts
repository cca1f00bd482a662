/**
 * The assertions of an eval case (EVAL-2), each checked against a log built as the runner builds it:
 * the pass, and a failure that says what was expected and what came.
 */
import { describe, expect, it } from 'vitest';
import { failureOf } from '../../../evals/runner/assertions.js';
import { finalJson } from '../../../evals/runner/final-json.js';
import { partialMatch } from '../../../evals/runner/partial-match.js';
import { logOf, message, toolTurn } from './eval-fixtures.js';

const searched = logOf(
  toolTurn(
    'search',
    'search_knowledge_base',
    { query: 'durable objects', limit: 3, tags: ['a', 'b'] },
    '[]',
    'Found: [{"title":"Threads"}]',
  ),
);

describe('eval assertions', () => {
  it('EVAL-2: contains, case-sensitive unless ignoreCase', async () => {
    expect(await failureOf({ kind: 'contains', text: 'Found' }, searched)).toBeNull();
    expect(await failureOf({ kind: 'contains', text: 'found' }, searched)).toMatch(
      /^contains: "found" not in the final text "Found/,
    );
    expect(await failureOf({ kind: 'contains', text: 'found', ignoreCase: true }, searched)).toBeNull();
  });

  it('EVAL-2: matches a RegExp or its source with flags; a global RegExp gives the same answer twice', async () => {
    expect(await failureOf({ kind: 'matches', pattern: /title"\s*:\s*"Threads/ }, searched)).toBeNull();
    expect(await failureOf({ kind: 'matches', pattern: '^found', flags: 'i' }, searched)).toBeNull();
    expect(await failureOf({ kind: 'matches', pattern: '^found' }, searched)).toMatch(
      /^matches: \/\^found\/ does not match/,
    );
    const global = { kind: 'matches' as const, pattern: /Threads/g };
    expect([await failureOf(global, searched), await failureOf(global, searched)]).toEqual([null, null]);
  });

  it('EVAL-2: json_schema reads the answer whole, fenced, or from its first bracket, and names what does not fit', async () => {
    const schema = { type: 'array', items: { type: 'object', required: ['title'] } };
    expect(await failureOf({ kind: 'json_schema', schema }, searched)).toBeNull();
    expect(finalJson('```json\n{"a": 1}\n```')).toEqual({ ok: true, value: { a: 1 } });
    expect(finalJson(' [1, 2] ')).toEqual({ ok: true, value: [1, 2] });
    const failure = await failureOf(
      { kind: 'json_schema', schema: { type: 'array', items: { required: ['body'] } } },
      searched,
    );
    expect(failure).toMatch(/^json_schema: the final answer does not match the schema \(.*body/);
    const prose = logOf([
      message({ role: 'user', content: 'q' }),
      message({ role: 'assistant', content: 'no json here' }),
    ]);
    expect(await failureOf({ kind: 'json_schema', schema }, prose)).toMatch(
      /^json_schema: the final answer holds no JSON/,
    );
  });

  it('EVAL-2: tool_called and tool_not_called, with arguments matched as a partial object', async () => {
    expect(await failureOf({ kind: 'tool_called', tool: 'search_knowledge_base' }, searched)).toBeNull();
    expect(
      await failureOf(
        { kind: 'tool_called', tool: 'search_knowledge_base', args: { query: 'durable objects' } },
        searched,
      ),
    ).toBeNull();
    expect(
      await failureOf({ kind: 'tool_called', tool: 'search_knowledge_base', args: { query: 'other' } }, searched),
    ).toBe(
      'tool_called: search_knowledge_base with {"query":"other"} was not called (its calls had {"query":"durable objects","limit":3,"tags":["a","b"]})',
    );
    expect(await failureOf({ kind: 'tool_called', tool: 'get_current_time' }, searched)).toBe(
      'tool_called: get_current_time was not called (tools called: search_knowledge_base)',
    );
    expect(await failureOf({ kind: 'tool_not_called', tool: 'get_current_time' }, searched)).toBeNull();
    expect(
      await failureOf({ kind: 'tool_not_called', tool: 'search_knowledge_base', args: { limit: 4 } }, searched),
    ).toBeNull();
    expect(
      await failureOf({ kind: 'tool_not_called', tool: 'search_knowledge_base', args: { limit: 3 } }, searched),
    ).toMatch(/^tool_not_called: search_knowledge_base with \{"limit":3\} was called 1 time\(s\)/);
  });

  it('EVAL-2: a partial match needs every named key, nested, and whole arrays', () => {
    const actual = { a: 1, b: { c: [1, { d: 2, e: 3 }], f: null } };
    expect(partialMatch(actual, { b: { c: [1, { d: 2 }] } })).toBe(true);
    expect(partialMatch(actual, { b: { c: [1] } })).toBe(false);
    expect(partialMatch(actual, { b: { f: null } })).toBe(true);
    expect(partialMatch(actual, { g: undefined })).toBe(false);
    expect(partialMatch('text', { a: 1 })).toBe(false);
    expect(partialMatch([{ a: 1 }], { 0: { a: 1 } })).toBe(false);
  });

  it('EVAL-2: a custom check passes on true and fails with its string, a wrong type or what it threw', async () => {
    expect(
      await failureOf({ kind: 'custom', check: (log) => log.toolCalls.length === 1 || 'no call' }, searched),
    ).toBeNull();
    expect(await failureOf({ kind: 'custom', name: 'two calls', check: () => 'one call' }, searched)).toBe(
      'two calls: one call',
    );
    expect(await failureOf({ kind: 'custom', check: () => false as unknown as true }, searched)).toBe(
      'custom: returned boolean, not true',
    );
    const threw = await failureOf(
      {
        kind: 'custom',
        check: async () => {
          throw new Error('boom');
        },
      },
      searched,
    );
    expect(threw).toBe('custom: threw boom');
  });

  it("EVAL-2: the final text is the last turn's, at the top level; a turn with no text leaves it empty", async () => {
    const log = logOf([
      ...toolTurn('first', 'get_current_time', {}, 'now', 'It is now.'),
      message({ role: 'user', content: 'second' }),
      message({ role: 'assistant', content: 'nested answer', depth: 1 }),
    ]);
    expect(log.finalText).toBe('');
    expect(await failureOf({ kind: 'contains', text: 'It is now' }, log)).toMatch(/not in the final text ""/);
  });
});
