/**
 * The Anthropic provider in workerd (THR-4): the Node suite checks the protocol; this checks that the
 * stream reading, the tool-call assembly and the thinking round trip need nothing workerd lacks, and
 * that a failing Anthropic model falls back to the OpenAI-compatible model server across providers.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { frames, type MessageReply } from '../../harness/anthropic-events.mjs';
import type { ModelRequest } from '../../src/engine/ports/index.js';
import { AnthropicProvider } from '../../src/providers/anthropic/index.js';
import { resolveProvider } from '../../src/providers/index.js';
import { defineModel, type ModelDefinition } from '../../src/spec/index.js';

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'Hello' }], tools: [], ...overrides };
}

/** A fetch streaming `replies` in turn, a few bytes a read, and keeping the bodies it was sent. */
function scripted(...replies: MessageReply[]): { fetch: typeof fetch; bodies: Record<string, unknown>[] } {
  const bodies: Record<string, unknown>[] = [];
  const encoder = new TextEncoder();
  return {
    bodies,
    fetch: async (_input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      const bytes = encoder.encode(frames(replies.shift() ?? { text: 'done' }, 'claude-sonnet-4-5').join(''));
      let offset = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (offset >= bytes.length) return controller.close();
          controller.enqueue(bytes.slice(offset, offset + 7));
          offset += 7;
        },
      });
      return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    },
  };
}

describe('the Anthropic provider on workerd', () => {
  it('THR-4: streams text, assembles a tool call and sends its thinking back with the result', async () => {
    const server = scripted(
      {
        blocks: [{ type: 'thinking', thinking: 'Look it up.', signature: 'sig' }],
        text: 'Checking…',
        toolCalls: [{ id: 'toolu_w', name: 'get_weather', input: '{"city":"Zürich"}' }],
      },
      { text: 'Sunny in Zürich.' },
    );
    const provider = new AnthropicProvider({ baseURL: 'https://anthropic.invalid', apiKey: 'k', fetch: server.fetch });
    const tools = [
      {
        type: 'function' as const,
        function: { name: 'get_weather', description: 'Weather.', parameters: { type: 'object', properties: {} } },
      },
    ];
    const settings = { reasoningEffort: 'low' as const };
    const deltas: string[] = [];

    const first = await provider.complete(request({ tools, settings }), { onTextDelta: (delta) => deltas.push(delta) });
    const second = await provider.complete(
      request({
        tools,
        settings,
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: first.text, tool_calls: first.toolCalls },
          { role: 'tool', tool_call_id: 'toolu_w', content: 'sunny' },
        ],
      }),
      { onTextDelta: (delta) => deltas.push(delta) },
    );

    expect(deltas.join('')).toBe('Checking…Sunny in Zürich.');
    expect(first.toolCalls).toEqual([
      { id: 'toolu_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Zürich"}' } },
    ]);
    expect(second.text).toBe('Sunny in Zürich.');
    const sentBack = server.bodies[1] as { messages: { content: unknown[] }[] };
    expect(sentBack.messages[1]?.content[0]).toEqual({
      type: 'thinking',
      thinking: 'Look it up.',
      signature: 'sig',
    });
  });

  it('THR-4: an anthropic model whose server answers 500 falls back to the OpenAI-compatible model', async () => {
    const claude = defineModel({
      name: 'claude',
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      // The local services answer 500 to anything under /status/500.
      baseURL: `${env.SERVICES_URL}/status/500`,
      fallbacks: ['backup'],
    });
    const backup = defineModel({ name: 'backup', provider: 'openai' });
    const models: Record<string, ModelDefinition> = { claude, backup };

    const response = await resolveProvider(claude, (name) => models[name] as ModelDefinition, env).complete(
      request({ model: 'claude' }),
    );

    // The model server of global-setup.ts echoes the user's message.
    expect(response.text).toBe('echo: Hello');
    expect(response.model).toBe('test-model');
  });
});
