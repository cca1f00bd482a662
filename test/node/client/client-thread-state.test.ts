/**
 * The state behind `useThread` (client/thread-state.ts) as a pure reducer: a load and then frames
 * build the log, the status, the waits and the text still streaming; a frame applied twice changes
 * nothing. And the hook itself renders in Node (react-dom/server: the first render, before any
 * effect) with the state a page shows while loading.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createClient, type Frame, type Message } from '../../../client/index.js';
import {
  initialThreadView,
  type ThreadAction,
  type ThreadView,
  threadReducer,
  useThread,
} from '../../../client/react.js';

function message(seq: number, role: Message['role'], content: string, id = `m${seq}`): Message {
  return {
    id,
    seq,
    role,
    content,
    name: null,
    tool_calls: null,
    tool_call_id: null,
    created_at: 0,
    parent_id: null,
    depth: 0,
    silent: false,
    metadata: null,
    tool_status: null,
    attachments: null,
    envelope: null,
  };
}

const run = (...actions: ThreadAction[]): ThreadView => actions.reduce(threadReducer, initialThreadView);
const frame = (value: Frame): ThreadAction => ({ type: 'frame', frame: value });
const loaded: ThreadAction = {
  type: 'loaded',
  thread: { status: 'idle', waiting_for: [], last_frame_seq: 4 },
  messages: [message(1, 'user', 'hi'), message(2, 'assistant', 'hello')],
};

describe('threadReducer', () => {
  it('is loading until the thread is read, then holds its log and status', () => {
    expect(initialThreadView.status).toBe('loading');
    const view = run(loaded);
    expect(view.status).toBe('idle');
    expect(view.messages.map((m) => m.content)).toEqual(['hi', 'hello']);
    expect(view.frames).toEqual([]);
  });

  it('streams text per message until the message arrives, then keeps the message', () => {
    const view = run(
      loaded,
      frame({ seq: 5, type: 'status', status: 'running' }),
      frame({ seq: 6, type: 'message', message: message(3, 'user', 'more') }),
      frame({ seq: 7, type: 'message_delta', message_id: 'm4', delta: 'Here ' }),
      frame({ seq: 8, type: 'message_delta', message_id: 'm4', delta: 'it is' }),
    );
    expect(view.streamingText).toEqual({ m4: 'Here it is' });
    expect(view.status).toBe('running');
    const done = threadReducer(
      view,
      frame({ seq: 9, type: 'message', message: message(4, 'assistant', 'Here it is.') }),
    );
    expect(done.streamingText).toEqual({});
    expect(done.messages.map((m) => m.id)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(done.frames.map((f) => f.seq)).toEqual([5, 6, 7, 8, 9]);
  });

  it('drops the text of an abandoned message', () => {
    const view = run(
      loaded,
      frame({ seq: 5, type: 'message_delta', message_id: 'gone', delta: 'half a sen' }),
      frame({ seq: 6, type: 'message_delta', message_id: 'kept', delta: 'Still ' }),
      frame({ seq: 7, type: 'message_abandoned', message_id: 'gone' }),
    );
    expect(view.streamingText).toEqual({ kept: 'Still ' });
  });

  it('adds a wait on `waiting`, removes it on `answered`, and clears waits and text when the thread settles', () => {
    const waiting = run(
      loaded,
      frame({ seq: 5, type: 'status', status: 'running' }),
      frame({ seq: 6, type: 'waiting', tool_call_id: 'c1', name: 'question', kind: 'question', payload: { q: 1 } }),
      frame({ seq: 7, type: 'waiting', tool_call_id: 'c2', name: 'fetch_data', kind: 'approval', payload: {} }),
      frame({ seq: 8, type: 'status', status: 'waiting' }),
    );
    expect(waiting.waitingFor.map((wait) => [wait.tool_call_id, wait.kind])).toEqual([
      ['c1', 'question'],
      ['c2', 'approval'],
    ]);
    expect(waiting.status).toBe('waiting');
    const answered = threadReducer(waiting, frame({ seq: 9, type: 'answered', tool_call_id: 'c1', kind: 'question' }));
    expect(answered.waitingFor.map((wait) => wait.tool_call_id)).toEqual(['c2']);
    const partial = threadReducer(answered, frame({ seq: 10, type: 'message_delta', message_id: 'x', delta: 'par' }));
    const settled = threadReducer(partial, frame({ seq: 11, type: 'status', status: 'idle' }));
    expect(settled.waitingFor).toEqual([]);
    expect(settled.streamingText).toEqual({});
  });

  it('keeps the last error until a new turn starts', () => {
    const failed = run(
      loaded,
      frame({ seq: 5, type: 'error', code: 'turn_failed', message: 'the model is unreachable' }),
      frame({ seq: 6, type: 'status', status: 'error' }),
    );
    expect(failed.error).toEqual({ code: 'turn_failed', message: 'the model is unreachable' });
    expect(failed.status).toBe('error');
    expect(threadReducer(failed, frame({ seq: 7, type: 'status', status: 'running' })).error).toBeNull();
    const refused = threadReducer(failed, { type: 'failed', error: { code: 'thread_not_found', message: 'gone' } });
    expect(refused.error?.code).toBe('thread_not_found');
  });

  it('applies each frame once: a replayed frame changes nothing', () => {
    const once = run(loaded, frame({ seq: 5, type: 'message_delta', message_id: 'm9', delta: 'a' }));
    const twice = threadReducer(once, frame({ seq: 5, type: 'message_delta', message_id: 'm9', delta: 'a' }));
    expect(twice).toBe(once);
    expect(twice.frames.map((f) => f.seq)).toEqual([5]);
  });

  it('merges the loaded log with messages that arrived first, by id and seq', () => {
    const early = run(frame({ seq: 9, type: 'message', message: message(3, 'assistant', 'late') }));
    const view = threadReducer(early, loaded);
    expect(view.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    // Frames newer than the load keep their status.
    const running = run(frame({ seq: 9, type: 'status', status: 'running' }), loaded);
    expect(running.status).toBe('running');
  });

  it('tracks the connection and starts over on reset', () => {
    const view = run(loaded, { type: 'connection', state: 'open' });
    expect(view.connection).toBe('open');
    expect(threadReducer(view, { type: 'connection', state: 'open' })).toBe(view);
    expect(threadReducer(view, { type: 'reset' })).toBe(initialThreadView);
  });
});

describe('useThread', () => {
  it('renders in Node with the loading state and the two actions', () => {
    const client = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'key', fetch: async () => new Response() });
    const shown: string[] = [];
    function Probe() {
      const thread = useThread(client, '00000000-0000-4000-8000-000000000000');
      shown.push(
        `${thread.status} ${thread.connection} ${thread.messages.length} ${typeof thread.send} ${typeof thread.stop}`,
      );
      return createElement('p', null, thread.status);
    }
    expect(renderToStaticMarkup(createElement(Probe))).toBe('<p>loading</p>');
    expect(shown).toEqual(['loading connecting 0 function function']);
  });
});
