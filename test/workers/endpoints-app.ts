/**
 * Thread endpoints for test/workers/endpoints.test.ts (EP-1 to EP-12): the specification's example,
 * notes kept in the thread (a POST with a schema-checked body, `[id]`, a static route beside it, a
 * catch-all), method suffixes in odd cases, a handler that throws with a secret in its message, one
 * that returns no Response, file writes that the thread's rules deny, and the example application's
 * summary endpoint.
 */
import { z } from 'zod';
import summaryExample from '../../agents/api/summary.js';
import { defineAgent, definePrompt, defineThreadEndpoint, type ThreadState } from '../../src/index.js';
import { CREDENTIAL_HEADERS } from '../support/hostile-corpus.js';

interface Note {
  id: string;
  text: string;
}

async function notesOf(state: ThreadState): Promise<Note[]> {
  return (await state.getValue<Note[]>('notes')) ?? [];
}

/** What became of the write `late.post` left running, by thread. */
const lateOutcomes = new Map<string, string>();

export const endpoints = {
  // The example application's endpoint (agents/api/summary.ts), served here against a real thread.
  'example/summary': summaryExample,
  // The specification's own example, as its chapter writes it.
  summary: defineThreadEndpoint(async (_req, state, params) => {
    const { messages, total } = await state.getMessages({ limit: 10 });
    return Response.json({
      threadId: state.threadId,
      messageCount: total,
      returned: messages.length,
      execution: state.execution,
      params,
    });
  }),
  'notes/index.post': defineThreadEndpoint(
    {
      summary: 'Add a note to the thread',
      body: z.object({ text: z.string().min(1) }),
      response: z.object({ id: z.string(), text: z.string() }),
    },
    async (req, state) => {
      const { text } = (await req.json()) as { text: string };
      const notes = await notesOf(state);
      const note = { id: String(notes.length + 1), text };
      await state.setValue('notes', [...notes, note]);
      state.emit('note_added', note);
      return Response.json(note, { status: 201 });
    },
  ),
  'notes/index': defineThreadEndpoint(async (_req, state) => Response.json({ notes: await notesOf(state) })),
  'notes/recent': defineThreadEndpoint(async (_req, state) => Response.json({ recent: (await notesOf(state)).at(-1) })),
  'notes/[id]': defineThreadEndpoint(async (_req, state, params) => {
    const note = (await notesOf(state)).find((candidate) => candidate.id === params.id);
    return note ? Response.json(note) : Response.json({ missing: params.id }, { status: 404 });
  }),
  'notes/[*]': defineThreadEndpoint(async (_req, _state, params) => Response.json({ rest: params['*'] })),
  // Method suffixes in any case.
  'echo.PuT': defineThreadEndpoint(async (req, _state, params) =>
    Response.json({
      method: req.method,
      body: await req.text(),
      params,
      credentials: CREDENTIAL_HEADERS.filter((name) => req.headers.has(name)),
    }),
  ),
  'echo.DELETE': defineThreadEndpoint(async (req) => Response.json({ method: req.method })),
  'search.get': defineThreadEndpoint({ query: z.object({ q: z.string().min(1) }) }, async (req) =>
    Response.json({ q: new URL(req.url).searchParams.get('q') }),
  ),
  'explode.post': defineThreadEndpoint(async (_req, state) => {
    await state.setValue('before_explosion', true);
    throw new Error(`the service refused token ${await state.env('EP_TOKEN')}`);
  }),
  'wrong-answer': defineThreadEndpoint((async () => ({ ok: true })) as never),
  // Writes a thread file: the agent's rules deny /private/*.
  'files-write.post': defineThreadEndpoint(async (req, state) => {
    const { path, text } = (await req.json()) as { path: string; text: string };
    const ref = await state.writeFile(path, text);
    return Response.json({ path: ref.path }, { status: 201 });
  }),
  'spawn.post': defineThreadEndpoint(async (_req, state) => {
    const child = await state.spawnChild({ agent: 'ep_agent', message: 'hello' });
    return Response.json(child, { status: 201 });
  }),
  // Leaves a write running after it answers; late-result reports what became of it.
  'late.post': defineThreadEndpoint(async (_req, state) => {
    setTimeout(() => {
      state.setValue('late', 'written after the answer').then(
        () => lateOutcomes.set(state.threadId, 'stored'),
        (error: Error) => lateOutcomes.set(state.threadId, error.message),
      );
    }, 0);
    return new Response(null, { status: 202 });
  }),
  'late-result': defineThreadEndpoint(async (_req, state) =>
    Response.json({ outcome: lateOutcomes.get(state.threadId) ?? null, value: (await state.getValue('late')) ?? null }),
  ),
  'fetch-inside': defineThreadEndpoint(async () => {
    // The global fetch inside a handler is the state's: a host inside the machine is refused.
    const answer = await fetch('http://169.254.169.254/latest/meta-data/');
    return new Response(await answer.text());
  }),
};

export const prompts = [definePrompt({ name: 'ep_prompt', prompt: 'You keep notes.', model: 'scripted', tools: [] })];

export const agents = [
  defineAgent({
    name: 'ep_agent',
    sideA: { prompt: 'ep_prompt' },
    variables: [{ name: 'EP_TOKEN', type: 'secret', required: false, description: 'Token of the notes service' }],
    permissions: [
      { permission: 'fs.write', pattern: '/private/*', action: 'deny' },
      { permission: '*', pattern: '*', action: 'allow' },
    ],
  }),
];
