/**
 * The floor of a turn: a bare Durable Object doing only the work any implementation of an agent loop
 * must do, so the runtime's cost is compared with the least it could be. `POST /floor/<nonce>?rounds=N`
 * stores the user's message and then, round after round until the model answers with text:
 *
 * - one streamed chat-completions request carrying the conversation so far (system prompt, the user's
 *   message, every assistant tool call and tool result of the turn, and the tool's definition), as the
 *   runtime's `bench` agent sends it;
 * - the answer's event stream parsed as it arrives (eventsource-parser, as the runtime's providers do)
 *   and its tool-call fragments assembled;
 * - two SQLite inserts: the assistant message and the (no-op) tool's result.
 *
 * The final text answer is stored as a third kind of row. The model server (bench/model-server.mjs)
 * times these requests exactly as it times the runtime's, by the nonce in the user's message; the
 * fetch answering once the turn ends gives the floor's end-to-end time, creation of the object included.
 */
import { DurableObject } from 'cloudflare:workers';
import { createParser } from 'eventsource-parser';
import type { RuntimeEnv } from '../src/index.js';

/** What the runtime's `bench` agent sends: its prompt and the `noop` tool (bench/worker.ts). */
const SYSTEM_PROMPT = 'Call noop until told otherwise.';
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'noop',
      description: 'Does nothing',
      parameters: { type: 'object', properties: {}, additionalProperties: false },
    },
  },
];
/** As the runtime's agents cap a turn. */
const MAX_STEPS = 100;

interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; content: string; tool_call_id: string };

interface Answer {
  text: string;
  toolCalls: ToolCall[];
}

export class Floor extends DurableObject<RuntimeEnv> {
  constructor(ctx: DurableObjectState, env: RuntimeEnv) {
    super(ctx, env);
    ctx.storage.sql.exec(
      `CREATE TABLE IF NOT EXISTS messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL,
        content TEXT,
        tool_calls TEXT,
        tool_call_id TEXT,
        created_at INTEGER NOT NULL
      )`,
    );
  }

  /**
   * `POST /floor/<nonce>?rounds=N`: the model server tells this run's requests apart by the nonce.
   * `GET /floor/ping`: answers at once, the least a request reaching a live object costs.
   */
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/floor/ping') return new Response('pong');
    const nonce = url.pathname.split('/')[2] ?? '';
    const rounds = Number(url.searchParams.get('rounds'));
    if (nonce === '' || !Number.isInteger(rounds) || rounds < 0) {
      return Response.json({ error: 'expected POST /floor/<nonce>?rounds=<n>' }, { status: 400 });
    }
    const user = `bench ${nonce} rounds:${rounds}`;
    this.insert('user', user);
    const messages: ChatMessage[] = [
      { role: 'system', content: SYSTEM_PROMPT },
      { role: 'user', content: user },
    ];
    for (let step = 0; step < MAX_STEPS; step++) {
      const answer = await this.ask(messages);
      if (typeof answer === 'string') return Response.json({ error: answer }, { status: 502 });
      if (answer.toolCalls.length === 0) {
        this.insert('assistant', answer.text);
        return Response.json({ steps: step + 1 });
      }
      const assistant: ChatMessage = { role: 'assistant', content: answer.text || null, tool_calls: answer.toolCalls };
      this.insert('assistant', assistant.content, JSON.stringify(answer.toolCalls));
      messages.push(assistant);
      for (const call of answer.toolCalls) {
        // The no-op tool's result, as `noop` returns it.
        this.insert('tool', 'ok', null, call.id);
        messages.push({ role: 'tool', content: 'ok', tool_call_id: call.id });
      }
    }
    return Response.json({ error: `no text answer after ${MAX_STEPS} steps` }, { status: 502 });
  }

  private insert(
    role: string,
    content: string | null,
    toolCalls: string | null = null,
    toolCallId: string | null = null,
  ) {
    this.ctx.storage.sql.exec(
      'INSERT INTO messages (id, role, content, tool_calls, tool_call_id, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      crypto.randomUUID(),
      role,
      content,
      toolCalls,
      toolCallId,
      Date.now(),
    );
  }

  /** One streamed request; the answer assembled from its events, or why it failed. */
  private async ask(messages: ChatMessage[]): Promise<Answer | string> {
    const response = await fetch(`${this.env.OPENAI_BASE_URL ?? ''}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.env.OPENAI_API_KEY ?? ''}` },
      body: JSON.stringify({
        model: this.env.MODEL,
        messages,
        stream: true,
        stream_options: { include_usage: true },
        tools: TOOLS,
      }),
    });
    if (!response.ok || !response.body) return `model server: ${response.status} ${await response.text()}`;
    const answer: Answer = { text: '', toolCalls: [] };
    let done = false;
    const parser = createParser({
      onEvent(event) {
        if (event.data === '[DONE]') {
          done = true;
          return;
        }
        const chunk = JSON.parse(event.data) as {
          choices?: { delta?: { content?: string | null; tool_calls?: ToolCallDelta[] } }[];
        };
        const delta = chunk.choices?.[0]?.delta;
        if (delta?.content) answer.text += delta.content;
        for (const fragment of delta?.tool_calls ?? []) {
          let call = answer.toolCalls[fragment.index];
          if (!call) {
            call = { id: '', type: 'function', function: { name: '', arguments: '' } };
            answer.toolCalls[fragment.index] = call;
          }
          if (fragment.id) call.id = fragment.id;
          if (fragment.function?.name) call.function.name = fragment.function.name;
          if (fragment.function?.arguments) call.function.arguments += fragment.function.arguments;
        }
      },
    });
    // Read to the body's end, past [DONE], as the runtime does: the connection then carries the next
    // round's request instead of a new one being opened.
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      if (!done) parser.feed(decoder.decode(chunk.value, { stream: true }));
    }
    return answer;
  }
}

interface ToolCallDelta {
  index: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}
