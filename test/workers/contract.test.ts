/**
 * The HTTP contract (THR-5, THR-2): the OpenAPI document the Worker serves is the whole truth about
 * its routes. Every route the app serves is in the document with an operationId, every operation of
 * the document is served, and live answers — happy paths and the main errors — match the schema
 * the document gives for their status and content type. The frames' Server-Sent Events route is
 * checked for order, resumption and heartbeats. Every test makes its own threads.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { type Schema, Validator } from '@cfworker/json-schema';
import { OpenAPIHono } from '@hono/zod-openapi';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { NumberedFrame } from '../../src/engine/ports/frames.js';
import { Registry } from '../../src/engine/registry/index.js';
import type { HttpEnv } from '../../src/http/contract/index.js';
import { userIdForKey } from '../../src/http/identity/index.js';
import { createApp } from '../../src/http/index.js';
import { eventRoutes } from '../../src/http/routes/index.js';
import { ALICE, api, BOB, createThread, settled, thread, until } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { allFrames } from '../support/socket.js';
import * as effectsApp from './effects-app.js';
import * as endpointsApp from './endpoints-app.js';
import * as family from './family-app.js';

interface Operation {
  method: string;
  path: string;
  operationId?: string;
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** The operationIds clients are generated from, exactly. */
const OPERATIONS: Record<string, string> = {
  listAgents: 'GET /api/agents',
  createThread: 'POST /api/threads',
  listThreads: 'GET /api/threads',
  getThread: 'GET /api/threads/{id}',
  deleteThread: 'DELETE /api/threads/{id}',
  postMessage: 'POST /api/threads/{id}/messages',
  listMessages: 'GET /api/threads/{id}/messages',
  stopThread: 'POST /api/threads/{id}/stop',
  answerQuestion: 'POST /api/threads/{id}/answers',
  answerApproval: 'POST /api/threads/{id}/approvals',
  submitToolResult: 'POST /api/threads/{id}/tool-results',
  storeSecret: 'POST /api/threads/{id}/secrets',
  startMcpAuthorization: 'POST /api/threads/{id}/mcp-authorizations',
  getFile: 'GET /api/threads/{id}/files/{path}',
  putFile: 'PUT /api/threads/{id}/files/{path}',
  getDeferredVariables: 'GET /api/threads/{id}/variables/{requestId}',
  provideDeferredVariables: 'POST /api/threads/{id}/variables/{requestId}',
  streamThread: 'GET /api/threads/{id}/stream',
  streamThreadEvents: 'GET /api/threads/{id}/events',
  mcp: 'POST /mcp',
  mcpOAuthStart: 'GET /oauth/mcp/start',
  mcpOAuthCallback: 'GET /oauth/mcp/callback',
};

let doc: OpenApiDocument;
const operations = new Map<string, Operation>();

beforeAll(async () => {
  const response = await api('/openapi.json', { key: null });
  expect(response.status).toBe(200);
  doc = (await response.json()) as OpenApiDocument;
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      operations.set(operation.operationId ?? `${method} ${path}`, { ...operation, method, path });
    }
  }
});

type CallInit = Parameters<typeof api>[1] & { query?: string };

/** Requests an operation by its id, at the document's own path with `params` filled in. */
function call(operationId: string, params: Record<string, string> = {}, init: CallInit = {}): Promise<Response> {
  const operation = operations.get(operationId);
  if (!operation) throw new Error(`no operation ${operationId} in the document`);
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? `{${name}}`);
  return api(`${path}${init.query ?? ''}`, { method: operation.method.toUpperCase(), ...init });
}

/** A schema of the document, its `$ref`s resolved into the components (as `$defs`). */
function resolved(schema: Schema): Schema {
  const defs = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'));
  const root = JSON.parse(JSON.stringify(schema).replaceAll('#/components/schemas/', '#/$defs/'));
  return { ...root, $defs: defs };
}

/**
 * Checks a live answer against the document: its status is declared for the operation, its media
 * type is declared for that status (or it has no body when none is), and a JSON body matches the
 * schema. Returns the JSON body, the text of an HTML page, or nothing for streams.
 */
async function conforms(operationId: string, response: Response, status: number): Promise<unknown> {
  expect(response.status, `${operationId} answered ${response.status}`).toBe(status);
  const declared = operations.get(operationId)?.responses[String(status)];
  expect(declared, `${operationId} documents ${status}`).toBeDefined();
  const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  if (!declared?.content) {
    expect(mediaType, `${operationId} ${status} has no body`).toBe('');
    return undefined;
  }
  const content = declared.content[mediaType] ?? declared.content['*/*'];
  expect(content, `${operationId} ${status} documents ${mediaType}`).toBeDefined();
  if (mediaType === 'application/json') {
    const body: unknown = await response.json();
    const result = new Validator(resolved(content?.schema as Schema), '2020-12', false).validate(body);
    expect(result.errors, `${operationId} ${status}: ${JSON.stringify(body).slice(0, 500)}`).toEqual([]);
    return body;
  }
  if (mediaType === 'text/event-stream') return undefined;
  return response.text();
}

const UNKNOWN = crypto.randomUUID();
const expectError = (body: unknown, code: string) => expect(body).toMatchObject({ error: { code } });

describe('the OpenAPI document and the routes', () => {
  it('THR-5: every route served is documented with an operationId, and every operation is served', async () => {
    // The application's thread endpoints (EP-12) are served and documented beside the runtime's routes.
    const app = createApp(
      new Registry({
        endpoints: { ...endpointsApp.endpoints, ...effectsApp.endpoints, ...family.endpoints },
        effects: effectsApp.effects,
      }),
    );
    const served = new Set(
      app.routes
        .filter((route) => route.method !== 'ALL') // middleware
        .map((route) => {
          const path = route.path
            .replace(/\/files\/\*$/, '/files/{path}')
            .replace(/\/\*$/, '/{*}')
            .replaceAll(/:(\w+)/g, '{$1}');
          return `${route.method} ${path}`;
        }),
    );
    const documented = [...operations.values()].map((op) => `${op.method.toUpperCase()} ${op.path}`);
    expect(new Set(documented)).toEqual(served);
    expect(documented).toHaveLength(served.size);
    for (const operation of operations.values()) expect(operation.operationId, operation.path).toBeTruthy();
    for (const [operationId, route] of Object.entries(OPERATIONS)) {
      const operation = operations.get(operationId);
      expect(`${operation?.method.toUpperCase()} ${operation?.path}`, operationId).toBe(route);
    }
    expect(doc.openapi).toBe('3.1.0');
    // The checks below are real: a body that breaks a referenced schema is refused.
    const threadSchema = new Validator(resolved({ $ref: '#/components/schemas/ThreadDetails' }), '2020-12');
    expect(threadSchema.validate({ id: 'x', status: 'sleeping' }).valid).toBe(false);
    expect(doc).toMatchObject({ security: [{ bearer: [] }], components: { securitySchemes: { bearer: {} } } });
    // Served for real: no operation falls through to the app's "no route" answer.
    for (const operationId of operations.keys()) {
      const params = { id: UNKNOWN, path: 'notes/a.txt', requestId: 'r1' };
      const response = await call(operationId, params, { key: null });
      const body = response.headers.get('content-type')?.includes('json') ? await response.json() : null;
      expect((body as { error?: { code?: string } } | null)?.error?.code, operationId).not.toBe('not_found');
    }
  });

  it('THR-5: /openapi.json and /docs answer without a key; /docs is the interactive reference of the document', async () => {
    const page = (await conforms('apiReference', await api('/docs', { key: null }), 200)) as string;
    expect(page).toContain('/openapi.json');
    const index = await api('/', { key: null, headers: { accept: 'application/json' } });
    expect(await conforms('serviceIndex', index, 200)).toMatchObject({ openapi: '/openapi.json' });
    // A browser gets the inspector page there instead, which the document says too.
    expect(await conforms('serviceIndex', await api('/', { key: null }), 200)).toMatch(/^<!doctype html>/i);
    await conforms('getOpenApiDocument', await api('/openapi.json', { key: null }), 200);
  });

  it('THR-5, THR-6: agents and thread lifecycle answers match their schemas, errors included', async () => {
    await conforms('listAgents', await call('listAgents'), 200);
    expectError(await conforms('listAgents', await call('listAgents', {}, { key: null }), 401), 'unauthorized');

    const script = directive([{ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' }]);
    const created = await call('createThread', {}, { json: { agent: 'general', messages: [{ content: script }] } });
    const { id } = (await conforms('createThread', created, 201)) as { id: string };
    const bad = await call('createThread', {}, { json: { agent: 'general', surprise: true } });
    expectError(await conforms('createThread', bad, 400), 'invalid_request');
    const unknownAgent = await call('createThread', {}, { json: { agent: 'nobody' } });
    expectError(await conforms('createThread', unknownAgent, 400), 'unknown_agent');
    await settled(id);

    await conforms('getThread', await call('getThread', { id }), 200);
    expectError(await conforms('getThread', await call('getThread', { id: UNKNOWN }), 404), 'thread_not_found');
    expectError(await conforms('getThread', await call('getThread', { id: 'not-a-uuid' }), 404), 'thread_not_found');
    expectError(await conforms('getThread', await call('getThread', { id }, { key: BOB }), 404), 'thread_not_found');

    await conforms('listThreads', await call('listThreads', {}, { query: '?agent=general&limit=5' }), 200);
    expectError(
      await conforms('listThreads', await call('listThreads', {}, { query: '?limit=0' }), 400),
      'invalid_request',
    );

    // The log holds a tool call, a tool result with its envelope and an answer: the Message schema in full.
    const page = (await conforms('listMessages', await call('listMessages', { id }), 200)) as { messages: unknown[] };
    expect(page.messages).toHaveLength(4);
    expectError(await conforms('listMessages', await call('listMessages', { id: UNKNOWN }), 404), 'thread_not_found');
    const badQuery = await call('listMessages', { id }, { query: '?limit=x' });
    expectError(await conforms('listMessages', badQuery, 400), 'invalid_request');

    const posted = await call(
      'postMessage',
      { id },
      { json: { content: 'hello' }, headers: { 'idempotency-key': 'k1' } },
    );
    expect(await conforms('postMessage', posted, 202)).toMatchObject({ replayed: false });
    expectError(
      await conforms('postMessage', await call('postMessage', { id }, { json: { content: '' } }), 400),
      'invalid_request',
    );
    const malformed = await call(
      'postMessage',
      { id },
      { body: '{"content": ', headers: { 'content-type': 'application/json' } },
    );
    expectError(await conforms('postMessage', malformed, 400), 'invalid_json');
    const noType = await call('postMessage', { id }, { body: '{}' });
    expect(((await conforms('postMessage', noType, 400)) as { error: { message: string } }).error.message).toContain(
      'content',
    );
    const reused = await call(
      'postMessage',
      { id },
      { json: { content: 'other' }, headers: { 'idempotency-key': 'k1' } },
    );
    expectError(await conforms('postMessage', reused, 422), 'idempotency_key_reused');
    const elsewhere = await call('postMessage', { id: UNKNOWN }, { json: { content: 'hi' } });
    expectError(await conforms('postMessage', elsewhere, 404), 'thread_not_found');
    await settled(id);

    await conforms('stopThread', await call('stopThread', { id }), 200);
    expectError(await conforms('stopThread', await call('stopThread', { id: UNKNOWN }), 404), 'thread_not_found');
    await conforms('deleteThread', await call('deleteThread', { id }), 204);
    expectError(await conforms('deleteThread', await call('deleteThread', { id }), 404), 'thread_not_found');
  });
});

interface WaitView {
  status: string;
  waiting_for: { tool_call_id: string; kind: string; payload: unknown }[];
}

/** The call the thread waits on, once it waits for a `kind` answer. */
async function waitFor(id: string, kind: string): Promise<WaitView['waiting_for'][number]> {
  const view = await until(
    async () => (await (await api(`/api/threads/${id}`)).json()) as WaitView,
    (seen) => seen.waiting_for.some((wait) => wait.kind === kind),
  );
  return view.waiting_for.find((wait) => wait.kind === kind) as WaitView['waiting_for'][number];
}

describe('answers, files and deferred children against the document', () => {
  it('LOCK-1, KIND-3, KIND-5, VAR-5: each answer route resumes its wait, and refuses what it cannot take', async () => {
    const questions = [{ question: 'Which colour?', options: [{ label: 'red' }, { label: 'blue' }] }];
    const asked = await createThread({
      agent: 'general',
      messages: [
        { content: directive([{ toolCalls: [{ name: 'question', arguments: { questions } }] }, { text: 'ok' }]) },
      ],
    });
    const question = await waitFor(asked, 'question');
    const notOne = await call(
      'answerQuestion',
      { id: asked },
      { json: { tool_call_id: question.tool_call_id, answers: [] } },
    );
    expectError(await conforms('answerQuestion', notOne, 400), 'invalid_answer');
    const answered = await call(
      'answerQuestion',
      { id: asked },
      { json: { tool_call_id: question.tool_call_id, answers: [['red']] } },
    );
    await conforms('answerQuestion', answered, 200);
    const again = await call(
      'answerQuestion',
      { id: asked },
      { json: { tool_call_id: question.tool_call_id, answers: [['red']] } },
    );
    expectError(await conforms('answerQuestion', again, 409), 'not_waiting');

    const guarded = await createThread({
      agent: 'general',
      messages: [{ content: directive([{ toolCalls: [{ name: 'guarded_increment' }] }, { text: 'ok' }]) }],
    });
    const approval = await waitFor(guarded, 'approval');
    const unknownCall = await call(
      'answerApproval',
      { id: guarded },
      { json: { tool_call_id: 'call_x', approved: true } },
    );
    expectError(await conforms('answerApproval', unknownCall, 409), 'not_waiting');
    const approved = await call(
      'answerApproval',
      { id: guarded },
      { json: { tool_call_id: approval.tool_call_id, approved: true } },
    );
    await conforms('answerApproval', approved, 200);

    const client = await createThread({
      agent: 'general',
      messages: [
        { content: directive([{ toolCalls: [{ name: 'client_lookup', arguments: { key: 'k1' } }] }, { text: 'ok' }]) },
      ],
    });
    const lookup = await waitFor(client, 'client_tool');
    const wrongOutput = await call(
      'submitToolResult',
      { id: client },
      { json: { tool_call_id: lookup.tool_call_id, output: { found: 'yes' } } },
    );
    await conforms('submitToolResult', wrongOutput, 400);
    const delivered = await call(
      'submitToolResult',
      { id: client },
      { json: { tool_call_id: lookup.tool_call_id, output: { found: true } } },
    );
    await conforms('submitToolResult', delivered, 200);

    const store = { name: 'store_secret', arguments: { name: 'SEC_API_KEY', reason: 'The service answered 401' } };
    const sealed = await createThread({
      agent: 'sec_scripted',
      messages: [{ content: directive([{ toolCalls: [store] }, { text: 'stored' }]) }],
    });
    const secret = await waitFor(sealed, 'secret');
    const short = await call(
      'storeSecret',
      { id: sealed },
      { json: { tool_call_id: secret.tool_call_id, value: 'short' } },
    );
    expectError(await conforms('storeSecret', short, 400), 'secret_too_short');
    const stored = await call(
      'storeSecret',
      { id: sealed },
      { json: { tool_call_id: secret.tool_call_id, value: 'a-long-enough-secret' } },
    );
    await conforms('storeSecret', stored, 200);
    await Promise.all([settled(asked), settled(guarded), settled(client), settled(sealed)]);
  });

  it('SUB-6: the deferred child routes show what is missing, refuse a partial answer and boot the child', async () => {
    const id = await createThread({
      agent: 'delegator',
      messages: [
        {
          content: directive([
            { toolCalls: [{ name: 'token_helper', arguments: { message: directive([{ text: 'child done' }]) } }] },
            { text: 'asked the user' },
          ]),
        },
      ],
    });
    const log = await settled(id);
    const { request_id: requestId } = JSON.parse(
      (log.find((m) => m.role === 'tool')?.content ?? '').replace(/^Error: /, ''),
    ) as { request_id: string };
    const shown = await conforms('getDeferredVariables', await call('getDeferredVariables', { id, requestId }), 200);
    expect(shown).toMatchObject({ request_id: requestId, missing: ['API_TOKEN', 'region'] });
    const unknown = await call('getDeferredVariables', { id, requestId: 'no-such-request' });
    await conforms('getDeferredVariables', unknown, 404);
    const partial = await call(
      'provideDeferredVariables',
      { id, requestId },
      { json: { variables: { region: 'eu' } } },
    );
    expectError(await conforms('provideDeferredVariables', partial, 400), 'missing_variables');
    const values = { region: 'eu', API_TOKEN: 'tok-123456' };
    const booted = await call('provideDeferredVariables', { id, requestId }, { json: { variables: values } });
    expect(await conforms('provideDeferredVariables', booted, 200)).toMatchObject({ child_id: expect.any(String) });
  });

  it('ATT-5: file uploads, downloads and folder listings, and their refusals', async () => {
    const id = await createThread({ agent: 'general' });
    const path = 'notes/today.txt';
    const put = await call('putFile', { id, path }, { body: 'remember', headers: { 'content-type': 'text/plain' } });
    expect(await conforms('putFile', put, 201)).toMatchObject({ path: `/${path}`, size: 8 });
    expect(await conforms('getFile', await call('getFile', { id, path }), 200)).toBe('remember');
    const folder = await conforms('getFile', await call('getFile', { id, path: 'notes/' }), 200);
    expect(folder).toMatchObject({ path: '/notes', entries: [{ name: 'today.txt', kind: 'file' }] });
    expectError(await conforms('getFile', await call('getFile', { id, path: 'nothing.txt' }), 404), 'file_not_found');
    expectError(await conforms('getFile', await call('getFile', { id, path: 'a%00.txt' }), 400), 'invalid_path');
    const big = await call(
      'putFile',
      { id, path: 'big.bin' },
      { body: 'x', headers: { 'content-length': String(2 ** 30) } },
    );
    expectError(await conforms('putFile', big, 413), 'file_too_large');
    // ATT-6: past the thread's storage quota (4 MiB in the test Worker).
    const overQuota = await call(
      'putFile',
      { id, path: 'over.bin' },
      { body: new Uint8Array(5 * 1024 * 1024), headers: { 'content-length': String(5 * 1024 * 1024) } },
    );
    expectError(await conforms('putFile', overQuota, 413), 'storage_quota_exceeded');
    const described = await conforms('getThread', await call('getThread', { id }), 200);
    expect(described).toMatchObject({ storage: { bytes: 8, quota_bytes: 4 * 1024 * 1024 } });
    const elsewhere = await call('putFile', { id: UNKNOWN, path }, { body: 'x' });
    expectError(await conforms('putFile', elsewhere, 404), 'thread_not_found');
  });

  it('THR-8: a message past the inbox bound answers 429 with Retry-After, as documented', async () => {
    const ask = directive([{ toolCalls: [{ name: 'question', arguments: { questions: [{ question: 'Why?' }] } }] }]);
    const id = await createThread({ agent: 'general', messages: [{ content: ask }] });
    await until(
      async () => (await (await call('getThread', { id })).json()) as { status: string },
      (view) => view.status === 'waiting',
    );
    for (let index = 0; index < 5; index++) {
      await conforms('postMessage', await call('postMessage', { id }, { json: { content: `m${index}` } }), 202);
    }
    const full = await call('postMessage', { id }, { json: { content: 'one too many' } });
    expect(full.headers.get('retry-after')).toBe('5');
    expect(operations.get('postMessage')?.responses['429']).toMatchObject({ headers: { 'Retry-After': {} } });
    expectError(await conforms('postMessage', full, 429), 'inbox_full');
  });
});

describe('the streams and the MCP endpoint against the document', () => {
  it('THR-2: the WebSocket route upgrades, and explains itself to a plain GET', async () => {
    const id = await createThread({ agent: 'general' });
    const upgraded = await call('streamThread', { id }, { headers: { upgrade: 'websocket' } });
    await conforms('streamThread', upgraded, 101);
    upgraded.webSocket?.accept();
    upgraded.webSocket?.close();
    expectError(await conforms('streamThread', await call('streamThread', { id }), 400), 'upgrade_required');
    const elsewhere = await call('streamThread', { id }, { key: BOB, headers: { upgrade: 'websocket' } });
    expectError(await conforms('streamThread', elsewhere, 404), 'thread_not_found');
  });

  it('THR-5: POST /mcp answers an event stream; GET and DELETE are 405; no key is a 401', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'contract', version: '1' } },
    };
    const headers = { accept: 'application/json, text/event-stream' };
    const answered = await call('mcp', {}, { json: initialize, headers });
    await conforms('mcp', answered, 200);
    expect(await answered.text()).toContain('"protocolVersion"');
    expectError(
      await conforms('mcp', await call('mcp', {}, { json: initialize, headers, key: null }), 401),
      'unauthorized',
    );
    expectError(await conforms('mcpGetNotAllowed', await call('mcpGetNotAllowed'), 405), 'method_not_allowed');
    expectError(await conforms('mcpDeleteNotAllowed', await call('mcpDeleteNotAllowed'), 405), 'method_not_allowed');
  });

  it('LOCK-4: an MCP authorization is started with a key, opened in a browser and completed there; refusals are documented', async () => {
    const refused = await call('mcpOAuthCallback', {}, { key: null, query: `?state=${UNKNOWN}.forged&code=x` });
    expect(await conforms('mcpOAuthCallback', refused, 400)).toContain('Authorization failed');
    const unknownLink = await call('mcpOAuthStart', {}, { key: null, query: `?ticket=${UNKNOWN}.forged` });
    expect(await conforms('mcpOAuthStart', unknownLink, 400)).toContain('Authorization failed');
    const id = await createThread({
      agent: 'mcp_oauth',
      variables: { MCP_OAUTH_URL: inject('mcpOAuthUrl') },
      messages: [{ content: directive([{ toolCalls: [{ name: 'secure__connect' }] }, { text: 'done' }]) }],
    });
    await waitFor(id, 'mcp_auth');
    const notWaited = await call('startMcpAuthorization', { id }, { json: { server: 'nowhere' } });
    expectError(await conforms('startMcpAuthorization', notWaited, 409), 'not_waiting');
    const link = await call('startMcpAuthorization', { id }, { json: { server: 'secure' } });
    const { start_url } = (await conforms('startMcpAuthorization', link, 200)) as { start_url: string };
    const start = new URL(start_url);
    const opened = await call('mcpOAuthStart', {}, { key: null, query: start.search, redirect: 'manual' });
    await conforms('mcpOAuthStart', opened, 302);
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const approval = await fetch(opened.headers.get('location') ?? '', { redirect: 'manual' });
    const callback = new URL(approval.headers.get('location') ?? '');
    const stranger = await call('mcpOAuthCallback', {}, { key: null, query: callback.search });
    expect(await conforms('mcpOAuthCallback', stranger, 403)).toContain('did not start');
    const page = await call('mcpOAuthCallback', {}, { key: null, query: callback.search, headers: { cookie } });
    expect(await conforms('mcpOAuthCallback', page, 200)).toContain('Authorized');
    await settled(id);
  });
});

interface EventReader {
  text: string;
  events: EventSourceMessage[];
  comments: string[];
  frames(): NumberedFrame[];
  /** Waits until `check` holds of what has arrived (a deadline, not a timing assumption). */
  until(check: (reader: EventReader) => boolean): Promise<void>;
  close(): Promise<void>;
}

/** Reads an event stream as it arrives, with the parser EventSource clients use. */
function readEvents(response: Response): EventReader {
  const source = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const reader: EventReader = {
    text: '',
    events: [],
    comments: [],
    frames: () => reader.events.map((event) => JSON.parse(event.data) as NumberedFrame),
    until: (check) =>
      until(
        async () => check(reader),
        (held) => held,
      ).then(() => undefined),
    close: () => source.cancel(),
  };
  const parser = createParser({
    onEvent: (event) => reader.events.push(event),
    onComment: (comment) => reader.comments.push(comment.trim()),
  });
  void (async () => {
    for (;;) {
      const { done, value } = await source.read().catch(() => ({ done: true, value: undefined }));
      if (done || !value) return;
      const chunk = decoder.decode(value, { stream: true });
      reader.text += chunk;
      parser.feed(chunk);
    }
  })();
  return reader;
}

const lastSeqIs = (seq: number) => (reader: EventReader) => reader.frames().at(-1)?.seq === seq;

/** The sockets the thread's object holds open: the SSE route's one to it, while a client listens. */
function openSockets(id: string): Promise<number> {
  return runInDurableObject(
    env.THREADS.get(env.THREADS.idFromName(id)),
    (_instance, state) => state.getWebSockets().length,
  );
}

describe('GET /api/threads/{id}/events (Server-Sent Events)', () => {
  const script = directive([{ toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] }, { text: 'five' }]);

  it('THR-2: each frame is an event whose id is its seq, in order from 1, live frames after the replay', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: 'hello' }] });
    await settled(id);
    const replayed = (await thread(id)).last_frame_seq;
    const response = await call('streamThreadEvents', { id });
    await conforms('streamThreadEvents', response, 200);
    const reader = readEvents(response);
    await reader.until(lastSeqIs(replayed));
    await api(`/api/threads/${id}/messages`, { method: 'POST', json: { content: script } });
    await reader.until((seen) =>
      seen.frames().some((f) => f.seq > replayed && f.type === 'status' && f.status === 'idle'),
    );
    const last = (await thread(id)).last_frame_seq;
    await reader.until(lastSeqIs(last));
    expect(reader.text.startsWith('retry: 1000\n\n')).toBe(true);
    expect(reader.events.every((event) => event.event === 'frame')).toBe(true);
    expect(reader.events.map((event) => Number(event.id))).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(reader.frames().map((frame) => frame.seq)).toEqual(reader.events.map((event) => Number(event.id)));
    // The same frames the WebSocket replays, byte for byte in meaning.
    expect(reader.frames()).toEqual(await allFrames(id));
    expect(reader.frames().map((frame) => frame.type)).toEqual(expect.arrayContaining(['tool_started', 'tool_result']));
    await reader.close();
  });

  it('THR-2: Last-Event-ID: n resumes at exactly n + 1; ?after= does the same, and the header wins', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: script }] });
    await settled(id);
    const all = await allFrames(id);
    const last = all.length;
    const n = Math.floor(last / 2);
    expect(n).toBeGreaterThan(1);
    const resumed = [
      await call('streamThreadEvents', { id }, { headers: { 'last-event-id': String(n) } }),
      await call('streamThreadEvents', { id }, { query: `?after=${n}` }),
      await call('streamThreadEvents', { id }, { query: '?after=0', headers: { 'last-event-id': String(n) } }),
    ];
    for (const response of resumed) {
      const reader = readEvents(response);
      await reader.until(lastSeqIs(last));
      expect(reader.events.map((event) => Number(event.id))).toEqual(
        Array.from({ length: last - n }, (_, i) => n + 1 + i),
      );
      expect(reader.frames()).toEqual(all.slice(n));
      await reader.close();
    }
    const bad = await call('streamThreadEvents', { id }, { headers: { 'last-event-id': 'yesterday' } });
    expectError(await conforms('streamThreadEvents', bad, 400), 'invalid_request');
  });

  it('THR-2, THR-6: same keys and owners as the WebSocket; the key may come as ?token=', async () => {
    const id = await createThread({ agent: 'general' });
    expectError(
      await conforms('streamThreadEvents', await call('streamThreadEvents', { id }, { key: null }), 401),
      'unauthorized',
    );
    const other = await call('streamThreadEvents', { id }, { key: BOB });
    expectError(await conforms('streamThreadEvents', other, 404), 'thread_not_found');
    const unknown = await call('streamThreadEvents', { id: UNKNOWN });
    expectError(await conforms('streamThreadEvents', unknown, 404), 'thread_not_found');
    const byToken = await call('streamThreadEvents', { id }, { key: null, query: `?token=${ALICE}` });
    await conforms('streamThreadEvents', byToken, 200);
    await byToken.body?.cancel();
    // Only the stream routes take ?token=: a file named `events` does not.
    const file = await api(`/api/threads/${id}/files/events?token=${ALICE}`, { key: null });
    expect(file.status).toBe(401);
  });

  it('THR-2: an idle stream gets a heartbeat comment every interval; a client gone closes the socket to the thread', async () => {
    const id = await createThread({ agent: 'general', messages: [{ content: 'hello' }] });
    await settled(id);
    const last = (await thread(id)).last_frame_seq;
    // The route with a short interval, behind a stand-in for the key check.
    const app = new OpenAPIHono<HttpEnv>();
    const userId = await userIdForKey(ALICE);
    app.use('*', async (c, next) => {
      c.set('principal', { tenant: 'default', subject: userId, role: 'approver', via: 'api_keys' });
      c.set('userId', userId);
      await next();
    });
    app.route('/api/threads', eventRoutes({ heartbeatMs: 20 }));
    const response = await app.request(`/api/threads/${id}/events`, {}, env);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = readEvents(response);
    await reader.until((seen) => seen.comments.filter((comment) => comment === 'heartbeat').length >= 2);
    expect(reader.frames().map((frame) => frame.seq)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(reader.text).toMatch(/\n\n: heartbeat\n\n/);
    expect(await openSockets(id)).toBe(1);
    // Over the network workerd reports a departed client at the next write (a frame or a heartbeat);
    // here the cancellation reaches the route directly.
    await reader.close();
    await until(
      () => openSockets(id),
      (count) => count === 0,
    );
  });
});
