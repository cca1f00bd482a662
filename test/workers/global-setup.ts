/**
 * Local services for the workerd tests, started once in Node: an OpenAI-compatible model server
 * (test/support/openai-server.mjs) that plays the directive script in each thread's own user
 * message, and a small HTTP service for tools that call outside APIs and for inspecting what the
 * model server received.
 */
import { createServer, type Server } from 'node:http';
import type { ScriptedRequest } from '@standardagents/spec';
import type { TestProject } from 'vitest/node';
import { directiveScript } from '../support/directive-script.js';
import { type RecordedBody, type Reply, startOpenAIServer } from '../support/openai-server.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    modelBaseUrl: string;
    servicesUrl: string;
  }
}

async function directiveReply(body: RecordedBody): Promise<Reply> {
  const reply = await directiveScript({
    messages: (body.messages ?? []) as unknown as ScriptedRequest['messages'],
    toolNames: (body.tools ?? []).map((tool) => tool.function.name),
  });
  return {
    text: reply.text,
    toolCalls: reply.toolCalls?.map((call) => ({
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    })),
  };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
}

export default async function setup(project: TestProject) {
  const model = await startOpenAIServer({ respond: directiveReply });
  const services = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    // GET /model-requests?containing=<marker>: bodies the model server received that mention the marker.
    if (url.pathname === '/model-requests') {
      const marker = url.searchParams.get('containing') ?? '';
      return send(
        200,
        model.requests.map((request) => request.body).filter((body) => JSON.stringify(body).includes(marker)),
      );
    }
    // GET /status/<code>: an outside API failing with that status.
    const status = /^\/status\/(\d{3})$/.exec(url.pathname);
    if (status) return send(Number(status[1]), { error: `status ${status[1]}` });
    // Anything else: an outside API answering JSON about the request.
    return send(200, { ok: true, path: url.pathname, query: Object.fromEntries(url.searchParams) });
  });
  project.provide('modelBaseUrl', model.baseURL);
  project.provide('servicesUrl', await listen(services));
  return async () => {
    await model.close();
    await new Promise((resolve) => services.close(resolve));
  };
}
