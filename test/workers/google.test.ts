/**
 * A thread on a `google` model in workerd (THR-4): the Worker calls the local Gemini server of
 * global-setup.ts over HTTP, runs the function call the model makes, sends its result back in
 * Gemini's format, streams the final answer as `message_delta` frames, and stores it with its usage.
 */
import { env } from 'cloudflare:workers';
import type { Message } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import type { RecordedBody } from '../../harness/google-server.mjs';
import { api, createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { openStream } from '../support/socket.js';

interface ReceivedRequest {
  path: string;
  query: Record<string, string>;
  body: RecordedBody;
}

async function geminiRequestsContaining(marker: string): Promise<ReceivedRequest[]> {
  return (await (await fetch(`${env.SERVICES_URL}/google-requests?containing=${marker}`)).json()) as ReceivedRequest[];
}

describe('google provider in a thread', () => {
  it('THR-4: a function call round trip: the result goes back as a functionResponse, the answer streams and is stored with its usage', async () => {
    const word = `word-${crypto.randomUUID()}`;
    const answer = `The dictionary says ${word} is defined; this answer streams in several small deltas.`;
    const id = await createThread({ agent: 'gemini' });
    const stream = await openStream(id);

    const posted = await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [{ name: 'gemini_lookup', arguments: { word } }] }, { text: answer }]) },
    });
    expect(posted.status).toBe(202);
    await stream.waitFor((frame) => frame.type === 'status' && frame.status === 'idle');
    const log = await settled(id);

    // The log: the call, its result, the answer.
    const [user, call, result, final] = log as [Message, Message, Message, Message];
    expect(log.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(user.role).toBe('user');
    const toolCall = call.tool_calls?.[0];
    expect(toolCall?.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(toolCall?.function).toEqual({ name: 'gemini_lookup', arguments: JSON.stringify({ word }) });
    expect(call.metadata?.finish_reason).toBe('tool_calls');
    expect(result).toMatchObject({ tool_call_id: toolCall?.id, content: `definition of ${word}` });
    expect(final.content).toBe(answer);
    expect(final.metadata?.model).toBe('gemini-2.5-flash');
    expect(final.metadata?.finish_reason).toBe('stop');

    // The requests: the second carries the call and its result in Gemini's format.
    const requests = await geminiRequestsContaining(word);
    expect(requests).toHaveLength(2);
    const [first, second] = requests as [ReceivedRequest, ReceivedRequest];
    for (const request of requests) {
      expect(request.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
      expect(request.query).toEqual({ alt: 'sse' });
      expect(request.body.systemInstruction).toEqual({ parts: [{ text: 'You answer with the dictionary.' }] });
    }
    expect(first.body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'gemini_lookup',
            description: 'Look a word up in the test dictionary',
            parametersJsonSchema: {
              type: 'object',
              properties: { word: { type: 'string', description: 'The word to look up' } },
              required: ['word'],
            },
          },
        ],
      },
    ]);
    expect(second.body.contents).toEqual([
      { role: 'user', parts: [{ text: user.content }] },
      {
        role: 'model',
        parts: [
          {
            functionCall: { id: toolCall?.id, name: 'gemini_lookup', args: { word } },
            thoughtSignature: 'skip_thought_signature_validator',
          },
        ],
      },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              id: toolCall?.id,
              name: 'gemini_lookup',
              response: { output: `definition of ${word}` },
            },
          },
        ],
      },
    ]);

    // The answer arrived as deltas of its own message, before the message itself.
    const deltas = stream.frames.filter((frame) => frame.type === 'message_delta' && frame.message_id === final.id);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((frame) => (frame.type === 'message_delta' ? frame.delta : '')).join('')).toBe(answer);
    const stored = stream.frames.find((frame) => frame.type === 'message' && frame.message.id === final.id);
    expect(stored?.seq).toBeGreaterThan(deltas.at(-1)?.seq ?? Number.POSITIVE_INFINITY);

    // Usage as the server reported it for three turns sent: 300 prompt tokens, half cached, thoughts as output.
    expect(final.metadata?.usage).toEqual({
      promptTokens: 300,
      completionTokens: answer.length + 7,
      totalTokens: 300 + answer.length + 7,
      cachedTokens: 150,
    });
    expect(call.metadata?.usage).toEqual({
      promptTokens: 100,
      completionTokens: 8,
      totalTokens: 108,
      cachedTokens: 50,
    });
    stream.close();
  });
});
