/**
 * The client (client/) declares the stream's frames itself, since no route documents them, and
 * must not import the runtime: these checks (enforced by `tsc`, which compiles this file) hold its
 * types to the server's own — every frame and record the server produces is one the client types
 * accept, and the kinds and statuses are the same sets. Also the small pure pieces: frame parsing,
 * ApiError from a body, file paths.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ApiError } from '../../../client/api-error.js';
import { filePath } from '../../../client/files.js';
import { type Frame, parseFrame } from '../../../client/frames.js';
import type { AgentList, MessagePage, ThreadDetails, ThreadPage } from '../../../client/resources.js';
import type { AcpToolKind, InteractionKind, Message, ThreadStatus, UsageTotals } from '../../../client/wire.js';
import type { NumberedFrame, UsageTotals as ServerUsage } from '../../../src/engine/ports/index.js';
import type {
  AcpToolKind as ServerAcpToolKind,
  InteractionKind as ServerInteractionKind,
  Message as ServerMessage,
  ThreadStatus as ServerThreadStatus,
} from '../../../src/spec/index.js';
import type {
  IndexedThread,
  MessagePage as ServerMessagePage,
  ThreadDetails as ServerThreadDetails,
} from '../../../src/thread/bindings/index.js';

/** JSON, as every value on the wire is. */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/**
 * A server type as a client receives it: what the server types `unknown` or `object` (no known
 * keys) arrives as some JSON; the rest keeps its shape, member by member of a union.
 */
type Serialised<T> = unknown extends T ? Json : T extends unknown ? SerialisedMember<T> : never;
type SerialisedMember<T> = T extends readonly (infer Item)[]
  ? Serialised<Item>[]
  : T extends object
    ? [keyof T] extends [never]
      ? Json
      : { [K in keyof T]: Serialised<T[K]> }
    : T;

describe('the client types and the server types', () => {
  it('every frame the server sends is a client Frame, and the frame types are the same', () => {
    expectTypeOf<Serialised<NumberedFrame>>().toExtend<Frame>();
    expectTypeOf<Frame['type']>().toEqualTypeOf<NumberedFrame['type']>();
  });

  it('the records are those the server stores', () => {
    expectTypeOf<Serialised<ServerMessage>>().toExtend<Message>();
    expectTypeOf<ServerUsage>().toEqualTypeOf<UsageTotals>();
    expectTypeOf<Serialised<ServerThreadDetails>>().toExtend<ThreadDetails>();
    expectTypeOf<Serialised<ServerMessagePage>>().toExtend<MessagePage>();
    expectTypeOf<IndexedThread>().toExtend<ThreadPage['threads'][number]>();
    expectTypeOf<AgentList['agents'][number]['name']>().toEqualTypeOf<string>();
  });

  it('the kinds and statuses are the same sets', () => {
    expectTypeOf<AcpToolKind>().toEqualTypeOf<ServerAcpToolKind>();
    expectTypeOf<InteractionKind>().toEqualTypeOf<ServerInteractionKind>();
    expectTypeOf<ThreadStatus>().toEqualTypeOf<ServerThreadStatus>();
  });
});

describe('parseFrame', () => {
  it('reads a numbered frame and nothing else', () => {
    expect(parseFrame('{"seq":3,"type":"status","status":"idle"}')).toEqual({ seq: 3, type: 'status', status: 'idle' });
    for (const text of ['pong', '', 'ping', '{"seq":"3","type":"status"}', '{"seq":-1,"type":"x"}', '{"seq":1}', '{']) {
      expect(parseFrame(text), text).toBeNull();
    }
  });
});

describe('ApiError', () => {
  it('carries the status and the code, message and details of the body', () => {
    const error = ApiError.fromBody(400, {
      error: {
        code: 'missing_variables',
        message: 'required variables without a value: A',
        details: { missing: ['A'] },
      },
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 400,
      code: 'missing_variables',
      message: 'required variables without a value: A',
      details: { missing: ['A'] },
    });
  });

  it('still says what happened when the body is not the API’s', async () => {
    expect(ApiError.fromBody(502, '<html>Bad gateway</html>')).toMatchObject({
      status: 502,
      code: 'http_502',
      message: '<html>Bad gateway</html>',
    });
    expect(ApiError.fromBody(500, '')).toMatchObject({ code: 'http_500', message: 'the API answered 500' });
    const response = new Response('{"error":{"code":"conflict","message":"answered already"}}', { status: 409 });
    expect(await ApiError.fromResponse(response)).toMatchObject({ status: 409, code: 'conflict' });
  });
});

describe('filePath', () => {
  it('encodes each segment and keeps the slashes', () => {
    expect(filePath('t1', '/notes/a b#?.txt')).toBe('/api/threads/t1/files/notes/a%20b%23%3F.txt');
    expect(filePath('t1', 'notes//x/')).toBe('/api/threads/t1/files/notes/x');
    expect(filePath('t1', '/')).toBe('/api/threads/t1/files/');
  });
});
