/**
 * Test agent for the egress policy: `egress` offers web_fetch, web_search and
 * `fetch_status`, a user tool that fetches through `state.fetch` as tool authors are told to. Its
 * manifest allows every call, so what refuses a URL in these tests is the egress policy alone.
 *
 * `reach_network` is a tool that does not: it reaches the network the ways tool code can without
 * `state` (the global `fetch`, a `fetch` captured when this module loaded, a Request object,
 * `node:http`, `new WebSocket`, `new EventSource`), and `fetch_on_abort`, `fetch_after_return`,
 * `fetch_in_access` and `fetch_in_approval` fetch from an abort listener, from work left running
 * after the call returned, and from the tool's `access` and `requireApproval`; what those got is
 * read back by `network_outcome`. `egress_denied` is the same agent with a `net.fetch` deny
 * rule on 127.0.0.1. `egress_helper` is a prompt run nested inside a tool call on the model server
 * (127.0.0.1, not an allowed host): the runtime's own request, which no tool rule covers.
 */
import http from 'node:http';
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool, EgressRefused } from '../../src/index.js';

// Kept when this module loads, as a library would: the runtime has loaded already.
const capturedFetch = fetch;

const WAYS = ['global', 'captured', 'request', 'node_http', 'websocket', 'event_source'] as const;

async function described(response: Response): Promise<string> {
  return `HTTP ${response.status}: ${(await response.text()).slice(0, 100)}`;
}

/** How long a node:http request may take: workerd reports one its fetch refused only to the log. */
export const NODE_HTTP_WAIT_MS = 5_000;

function nodeGet(url: string): Promise<string> {
  const answered = new Promise<string>((resolve, reject) => {
    const request = http.get(url, (response) => {
      response.resume();
      response.on('end', () => resolve(`HTTP ${response.statusCode}`));
    });
    request.on('error', reject);
  });
  const silence = new Promise<never>((_, reject) =>
    setTimeout(() => reject(new Error(`no answer within ${NODE_HTTP_WAIT_MS} ms`)), NODE_HTTP_WAIT_MS),
  );
  return Promise.race([answered, silence]);
}

async function reach(way: (typeof WAYS)[number], url: string): Promise<string> {
  switch (way) {
    case 'global':
      return described(await fetch(url));
    case 'captured':
      return described(await capturedFetch(url));
    case 'request':
      return described(await fetch(new Request(url, { method: 'POST', body: 'payload' })));
    case 'node_http':
      return nodeGet(url);
    case 'websocket':
      new WebSocket(url.replace(/^http/, 'ws'));
      return 'opened a WebSocket';
    case 'event_source':
      new EventSource(url);
      return 'opened an EventSource';
  }
}

/** What a request ended in, as the tools report it. */
function outcome(attempt: () => Promise<string>): Promise<string> {
  return attempt().catch((error: unknown) => {
    const found = error instanceof Error ? error : new Error(String(error));
    // node:http wraps what fetch rejected with; a refusal is its cause.
    const cause = found.cause instanceof EgressRefused ? found.cause : found;
    return `${cause instanceof EgressRefused ? 'refused' : 'failed'}: ${cause.message}`;
  });
}

/** Per URL: what a request made outside the call's body (abort listener, leftover work, access, requireApproval) got. */
const outcomes = new Map<string, Promise<string>>();

const fetchLater = (url: string) =>
  outcomes.set(
    url,
    outcome(async () => described(await fetch(url))),
  );

export const tools = {
  fetch_status: defineTool({
    description: 'Fetch a URL and report its HTTP status and first bytes',
    args: z.object({ url: z.string().describe('The URL to fetch') }),
    requires: { net: { hosts: ['*'] } },
    execute: async (state, args) => {
      try {
        const response = await state.fetch(args.url);
        return { status: 'success', result: `HTTP ${response.status}: ${(await response.text()).slice(0, 100)}` };
      } catch (error) {
        if (error instanceof EgressRefused) return { status: 'error', error: `refused: ${error.message}` };
        throw error;
      }
    },
  }),
  reach_network: defineTool({
    description: 'Request a URL without the thread state, the given way',
    args: z.object({ url: z.string().describe('The URL'), way: z.enum(WAYS).describe('How to reach it') }),
    execute: async (_state, args) => {
      const got = await outcome(() => reach(args.way, args.url));
      return got.startsWith('HTTP') || got.startsWith('opened')
        ? { status: 'success', result: got }
        : { status: 'error', error: got };
    },
  }),
  fetch_on_abort: defineTool({
    description: 'Wait for the abort signal, then fetch a URL from its listener',
    args: z.object({ url: z.string().describe('The URL') }),
    timeout: 50,
    execute: (state, args) => {
      state.execution?.abortSignal.addEventListener('abort', () => fetchLater(args.url));
      return new Promise(() => {});
    },
  }),
  fetch_after_return: defineTool({
    description: 'Return at once and fetch a URL right after',
    args: z.object({ url: z.string().describe('The URL') }),
    execute: async (_state, args) => {
      const later = new Promise<string>((resolve) =>
        setTimeout(() => resolve(outcome(async () => described(await fetch(args.url)))), 0),
      );
      outcomes.set(args.url, later);
      return { status: 'success', result: 'returned' };
    },
  }),
  fetch_in_access: defineTool({
    description: 'Fetch a URL while declaring what the call touches',
    args: z.object({ url: z.string().describe('The URL') }),
    access: (args) => {
      fetchLater(args.url);
      return {};
    },
    execute: async () => ({ status: 'success', result: 'ran' }),
  }),
  fetch_in_approval: defineTool({
    description: 'Fetch a URL while deciding whether the call needs approval',
    args: z.object({ url: z.string().describe('The URL') }),
    requireApproval: (args) => {
      fetchLater(args.url);
      return false;
    },
    execute: async () => ({ status: 'success', result: 'ran' }),
  }),
  network_outcome: defineTool({
    description: 'Report what the request a previous call made outside its body got',
    args: z.object({ url: z.string().describe('The URL the request was for') }),
    execute: async (_state, args) => ({
      status: 'success',
      result: (await outcomes.get(args.url)) ?? 'no request was made',
    }),
  }),
};

export const prompts = [
  definePrompt({
    name: 'egress',
    prompt: '',
    model: 'scripted',
    tools: [
      'web_fetch',
      'web_search',
      'fetch_status',
      'reach_network',
      'fetch_on_abort',
      'fetch_after_return',
      'fetch_in_access',
      'fetch_in_approval',
      'network_outcome',
      'egress_helper',
    ],
  }),
  definePrompt({
    name: 'egress_helper',
    toolDescription: 'Ask the helper prompt a question',
    prompt: 'You help.',
    model: 'remote',
    tools: [],
    exposeAsTool: true,
    includeChat: false,
  }),
];

const ALLOW_ALL = { permission: '*', pattern: '*', action: 'allow' } as const;

export const agents = [
  defineAgent({ name: 'egress', sideA: { prompt: 'egress' }, permissions: [ALLOW_ALL] }),
  defineAgent({
    name: 'egress_denied',
    sideA: { prompt: 'egress' },
    permissions: [{ permission: 'net.fetch', pattern: '127.0.0.1', action: 'deny' }, ALLOW_ALL],
  }),
];
