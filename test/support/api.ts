/**
 * HTTP helpers for tests in workerd: requests through the Worker's own fetch handler, exactly as a
 * client would send them.
 */
import { exports } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';

export const ALICE = 'test-key-alice';
export const BOB = 'test-key-bob';
const BASE = 'https://runtime.test';
// The Worker under test (test/workers/worker.ts) as its own exports describe it.
const worker = (exports as unknown as { default: Fetcher }).default;

export async function api(path: string, init: RequestInit & { key?: string | null; json?: unknown } = {}) {
  const headers = new Headers(init.headers);
  const key = init.key === undefined ? ALICE : init.key;
  if (key) headers.set('authorization', `Bearer ${key}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(init.json);
  }
  return worker.fetch(new Request(`${BASE}${path}`, { ...init, headers, body }));
}

export async function createThread(json: Record<string, unknown>, key = ALICE): Promise<string> {
  const response = await api('/api/threads', { method: 'POST', json, key });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

export interface ThreadView {
  status: string;
  message_count: number;
  last_error: string | null;
  last_frame_seq: number;
}

export async function thread(id: string, key = ALICE): Promise<ThreadView> {
  return (await (await api(`/api/threads/${id}`, { key })).json()) as ThreadView;
}

export async function messages(id: string, query = '', key = ALICE): Promise<Message[]> {
  const response = await api(`/api/threads/${id}/messages?limit=1000${query}`, { key });
  return ((await response.json()) as { messages: Message[] }).messages;
}

/** Polls until `check` holds; fails with the last value seen after `timeoutMs`. */
export async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 25_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > deadline) throw new Error(`condition not reached; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
    value = await read();
  }
  return value;
}

/**
 * Waits until the thread's turn has ended — the log ends in an assistant answer, or the turn failed
 * or hit a limit — and returns its log.
 */
export async function settled(id: string, key = ALICE): Promise<Message[]> {
  const [, log] = await until(
    () => Promise.all([thread(id, key), messages(id, '', key)]),
    ([view, log]) => {
      const last = log[log.length - 1];
      const answered = last?.role === 'assistant' && !last.tool_calls;
      return view.status !== 'running' && (answered || view.last_error !== null);
    },
  );
  return log;
}
