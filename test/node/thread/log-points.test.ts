/**
 * FORK-4: which messages of a log are fork and rewind points: none inside a tool round (the
 * assistant message with calls, a result with sibling results after it, a nested run's messages
 * between them, a round whose results are not all in yet), and the nearest points named when one is
 * refused.
 */
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { firstPointAbove, logPoint } from '../../../src/thread/history/index.js';
import { storedMessage } from '../../support/stored-message.js';

let seq = 0;

function message(id: string, role: Message['role'], extra: Partial<Message> = {}): Message {
  seq++;
  return storedMessage(seq, { id, role, content: id, ...extra });
}

const calls = (...ids: string[]) =>
  ids.map((id) => ({ id, type: 'function' as const, function: { name: 't', arguments: '{}' } }));
const assistant = (id: string, ...callIds: string[]) =>
  message(id, 'assistant', callIds.length ? { tool_calls: calls(...callIds) } : {});
const result = (id: string, callId: string, depth = 0) => message(id, 'tool', { tool_call_id: callId, depth });

/** u1, a1 calling c1 and c2, r1, a nested run (n-a, its own round n-c and n-r), r2, a2; u2, a3 calling c3 with no result yet. */
function log(): Message[] {
  seq = 0;
  return [
    message('u1', 'user'),
    assistant('a1', 'c1', 'c2'),
    result('r1', 'c1'),
    { ...assistant('n-a', 'n-c'), depth: 1 },
    result('n-r', 'n-c', 1),
    result('r2', 'c2'),
    assistant('a2'),
    message('u2', 'user'),
    assistant('a3', 'c3'),
  ];
}

const ok = (id: string) => expect(logPoint(log(), id)).toMatchObject({ ok: true, message: { id } });

function refused(id: string, before: string | null, after: string | null) {
  expect(logPoint(log(), id)).toMatchObject({
    ok: false,
    error: { status: 409, code: 'point_mid_round', details: { before, after } },
  });
}

describe('fork and rewind points', () => {
  it('FORK-4: messages outside rounds are points; the last result of a round closes it and is one', () => {
    for (const id of ['u1', 'r2', 'a2', 'u2']) ok(id);
  });

  it('FORK-4: the calling message, a result with siblings after it and a nested run inside the round are not', () => {
    for (const id of ['a1', 'r1', 'n-a', 'n-r']) refused(id, 'u1', 'r2');
  });

  it('FORK-4: a round whose results are not all in runs to the end of the log', () => {
    refused('a3', 'u2', null);
  });

  it('FORK-1: an id not in the log is not found, whatever it looks like', () => {
    for (const id of ['nope', '', 'u1 ', 'U1']) {
      expect(logPoint(log(), id)).toMatchObject({ ok: false, error: { status: 404, code: 'message_not_found' } });
    }
  });

  it('FORK-7: the oldest point above a dropped position', () => {
    const messages = log();
    expect(firstPointAbove(messages, 0)).toBe('u1');
    expect(firstPointAbove(messages, 1)).toBe('r2');
    expect(firstPointAbove(messages, 9)).toBeNull();
  });
});
