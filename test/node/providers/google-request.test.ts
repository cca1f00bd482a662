/**
 * What the Google Gemini provider sends (THR-4, EXE-9): the request line and headers, the
 * conversation in Gemini's shape, tools with their schemas reduced to what Gemini reads, the tool
 * choice, and every model setting, each asserted on the exact body the local Gemini server recorded.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type GoogleServer, startGoogleServer } from '../../../harness/google-server.mjs';
import type { ModelRequest } from '../../../src/engine/ports/provider.js';
import { GoogleProvider } from '../../../src/providers/google/index.js';
import { modelStatus, resolveProvider } from '../../../src/providers/index.js';
import type { ModelDefinition } from '../../../src/spec/define-model.js';
import { argumentsJsonSchema } from '../../../src/spec/schema.js';
import { serverPerFile } from '../../support/provider-kit.js';

const API_KEY = 'AIza-test-SECRET-0123456789';
const SKIP = 'skip_thought_signature_validator';

let server: GoogleServer;
serverPerFile(startGoogleServer, (started) => {
  server = started;
});

function provider(baseURL = server.url): GoogleProvider {
  return new GoogleProvider({ baseURL, apiKey: API_KEY, sleep: async () => {} });
}

function request(overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: 'Hello' }], tools: [], ...overrides };
}

/** Sends `overrides` and returns the body the server recorded. */
async function sent(overrides: Partial<ModelRequest> = {}): Promise<Record<string, unknown>> {
  server.enqueue({ text: 'ok' });
  await provider().complete(request(overrides));
  const body = server.requests[0]?.body;
  if (!body) throw new Error('the server recorded no body');
  return body;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('GoogleProvider: the request', () => {
  it('THR-4: posts to {base}/v1beta/models/{model}:streamGenerateContent?alt=sse with the key in x-goog-api-key', async () => {
    await sent();

    const [recorded] = server.requests;
    expect(recorded?.method).toBe('POST');
    expect(recorded?.path).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent');
    expect(recorded?.query).toEqual({ alt: 'sse' });
    expect(recorded?.headers['x-goog-api-key']).toBe(API_KEY);
    expect(recorded?.headers['content-type']).toBe('application/json');
    expect(recorded?.headers.authorization).toBeUndefined();
    expect(recorded?.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'Hello' }] }] });
  });

  it('THR-4: keeps a base that names the API version, and a model id that names its collection', async () => {
    server.enqueue({ text: 'a' }, { text: 'b' });

    await provider(`${server.url}/v1beta/`).complete(request({ model: 'models/gemini-3-pro-preview' }));
    await provider(`${server.url}/`).complete(request({ model: 'gemini-2.5-pro' }));

    expect(server.requests.map((recorded) => recorded.path)).toEqual([
      '/v1beta/models/gemini-3-pro-preview:streamGenerateContent',
      '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
    ]);
  });

  it('THR-4: an API server that requires the key accepts the provider and refuses a wrong key', async () => {
    const guarded = await startGoogleServer({ apiKey: API_KEY });
    try {
      const response = await provider(guarded.url).complete(request());
      expect(response.text).toBe('echo: Hello');
      const refused = await new GoogleProvider({ baseURL: guarded.url, apiKey: 'wrong' })
        .complete(request())
        .catch((error: unknown) => error);
      expect((refused as Error).message).toBe(
        'Gemini provider answered 400 INVALID_ARGUMENT: API key not valid. Please pass a valid API key.',
      );
    } finally {
      await guarded.close();
    }
  });
});

describe('GoogleProvider: configuration', () => {
  const gemini: ModelDefinition = { name: 'gemini', provider: 'google', model: 'gemini-2.5-flash' };
  const lookup = (name: string): ModelDefinition => {
    throw new Error(`no model ${name}`);
  };

  it('THR-4: a google model reads GOOGLE_BASE_URL and GOOGLE_API_KEY, or the variables it names', async () => {
    server.enqueue({ text: 'default variables' }, { text: 'own variables' });
    const own: ModelDefinition = { ...gemini, baseURLVariable: 'GEMINI_URL', apiKeyVariable: 'GEMINI_KEY' };

    const first = await resolveProvider(gemini, lookup, { GOOGLE_BASE_URL: server.url, GOOGLE_API_KEY: 'k1' }).complete(
      request({ model: 'ignored' }),
    );
    const second = await resolveProvider(own, lookup, { GEMINI_URL: server.url, GEMINI_KEY: 'k2' }).complete(request());

    expect([first.text, second.text]).toEqual(['default variables', 'own variables']);
    expect(server.requests.map((recorded) => [recorded.model, recorded.headers['x-goog-api-key']])).toEqual([
      ['gemini-2.5-flash', 'k1'],
      ['gemini-2.5-flash', 'k2'],
    ]);
  });

  it('THR-4: without a key or an endpoint, a google model is not configured and names GOOGLE_API_KEY', () => {
    expect(modelStatus(gemini, {})).toMatchObject({ configured: false, missing: ['GOOGLE_API_KEY'] });
    expect(modelStatus(gemini, { GOOGLE_API_KEY: 'k' })).toMatchObject({ configured: true, missing: [] });
  });
});

describe('GoogleProvider: the conversation', () => {
  it('THR-4: maps the system prompt, tool calls, their results in one user turn, and images from data: URLs', async () => {
    const body = await sent({
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather and time in Paris?' },
        {
          role: 'assistant',
          content: 'Checking both.',
          tool_calls: [
            { id: 'call_w', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_t', type: 'function', function: { name: 'get_time', arguments: '{"tz":"Europe/Paris"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_w', content: 'Sunny, 21 °C' },
        { role: 'tool', tool_call_id: 'call_t', content: '{"time":"14:05"}' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And this photo?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          ],
        },
      ],
    });

    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Weather and time in Paris?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Checking both.' },
            {
              functionCall: { id: 'call_w', name: 'get_weather', args: { city: 'Paris' } },
              thoughtSignature: SKIP,
            },
            { functionCall: { id: 'call_t', name: 'get_time', args: { tz: 'Europe/Paris' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'call_w', name: 'get_weather', response: { output: 'Sunny, 21 °C' } } },
            { functionResponse: { id: 'call_t', name: 'get_time', response: { output: '{"time":"14:05"}' } } },
            { text: 'And this photo?' },
            { inlineData: { mimeType: 'image/png', data: PNG } },
          ],
        },
      ],
    });
  });

  it('EXE-9: a tool result with an image sends its text as output and the image as inline data', async () => {
    const body = await sent({
      messages: [
        { role: 'user', content: 'Screenshot it.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_s', type: 'function', function: { name: 'screenshot', arguments: '{}' } }],
        },
        {
          role: 'tool',
          tool_call_id: 'call_s',
          content: [
            { type: 'text', text: 'Captured.' },
            { type: 'image_url', image_url: { url: `data:image/jpeg;base64,${PNG}` } },
          ],
        },
      ],
    });

    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Screenshot it.' }] },
      {
        role: 'model',
        parts: [{ functionCall: { id: 'call_s', name: 'screenshot', args: {} }, thoughtSignature: SKIP }],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'call_s', name: 'screenshot', response: { output: 'Captured.' } } },
          { inlineData: { mimeType: 'image/jpeg', data: PNG } },
        ],
      },
    ]);
  });

  it('THR-4: every step signs its first call; malformed arguments from another provider go as raw text', async () => {
    const body = await sent({
      messages: [
        { role: 'user', content: 'Go.' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'a', type: 'function', function: { name: 'first', arguments: '{"path": "x",' } }],
        },
        { role: 'tool', tool_call_id: 'a', content: 'invalid arguments' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'b', type: 'function', function: { name: 'second', arguments: '' } }],
        },
        { role: 'tool', tool_call_id: 'b', content: '' },
        { role: 'assistant', content: 'Done.' },
      ],
    });

    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Go.' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'a', name: 'first', args: { arguments: '{"path": "x",' } }, thoughtSignature: SKIP },
        ],
      },
      {
        role: 'user',
        parts: [{ functionResponse: { id: 'a', name: 'first', response: { output: 'invalid arguments' } } }],
      },
      { role: 'model', parts: [{ functionCall: { id: 'b', name: 'second', args: {} }, thoughtSignature: SKIP }] },
      { role: 'user', parts: [{ functionResponse: { id: 'b', name: 'second', response: { output: '' } } }] },
      { role: 'model', parts: [{ text: 'Done.' }] },
    ]);
  });
});

describe('GoogleProvider: tools', () => {
  it('THR-4: declares tools with their JSON Schema reduced to the keywords Gemini reads', async () => {
    const args = z.object({
      city: z.string().min(1).max(80).describe('City name'),
      unit: z.enum(['celsius', 'fahrenheit']).default('celsius'),
      days: z.number().int().min(1).max(7).optional(),
      note: z.string().nullable(),
      when: z.union([z.string(), z.number()]),
      tags: z.record(z.string(), z.number()),
      mode: z.literal('fast'),
      stops: z.array(z.object({ name: z.string(), at: z.string().regex(/^\d\d:\d\d$/) })).max(3),
    });
    const parameters = argumentsJsonSchema(args);
    // What the runtime produces holds keywords Gemini does not document.
    expect(JSON.stringify(parameters)).toMatch(/"default"|"propertyNames"|"const"|"pattern"|"minLength"/);

    const body = await sent({
      tools: [
        { type: 'function', function: { name: 'get_weather', description: 'Weather for a city.', parameters } },
        {
          type: 'function',
          function: { name: 'get_time', description: 'The time.', parameters: argumentsJsonSchema(undefined) },
        },
      ],
      toolChoice: 'required',
      parallelToolCalls: false,
    });

    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather for a city.',
            parametersJsonSchema: {
              type: 'object',
              properties: {
                city: { type: 'string', description: 'City name' },
                unit: { type: 'string', enum: ['celsius', 'fahrenheit'], description: 'Default: "celsius".' },
                days: { type: 'integer', minimum: 1, maximum: 7 },
                note: { type: ['string', 'null'] },
                when: { type: ['string', 'number'] },
                tags: { type: 'object', additionalProperties: { type: 'number' } },
                mode: { type: 'string', enum: ['fast'] },
                stops: {
                  maxItems: 3,
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { name: { type: 'string' }, at: { type: 'string' } },
                    required: ['name', 'at'],
                  },
                },
              },
              required: ['city', 'note', 'when', 'tags', 'mode', 'stops'],
            },
          },
          { name: 'get_time', description: 'The time.' },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(body).not.toHaveProperty('parallelToolCalls');
    expect(JSON.stringify(body.tools)).not.toMatch(
      /"default"|"propertyNames"|"const"|"pattern"|"minLength"|"\$schema"/,
    );
  });

  it('THR-4: maps the tool choice to a function-calling mode, and sends none without tools', async () => {
    const tools: ModelRequest['tools'] = [
      { type: 'function', function: { name: 't', description: 'T.', parameters: { type: 'object', properties: {} } } },
    ];
    server.enqueue({ text: '1' }, { text: '2' }, { text: '3' }, { text: '4' });

    await provider().complete(request({ tools, toolChoice: 'auto' }));
    await provider().complete(request({ tools, toolChoice: 'none' }));
    await provider().complete(request({ tools }));
    await provider().complete(request({ toolChoice: 'required' }));

    expect(server.requests.map((recorded) => recorded.body?.toolConfig)).toEqual([
      { functionCallingConfig: { mode: 'AUTO' } },
      { functionCallingConfig: { mode: 'NONE' } },
      undefined,
      undefined,
    ]);
    expect(server.requests[3]?.body).not.toHaveProperty('tools');
  });

  it('THR-4: a $ref keeps only $ keywords; $defs and anyOf are converted inside', async () => {
    const parameters = {
      type: 'object',
      properties: {
        node: { $ref: '#/$defs/Node', description: 'dropped beside a $ref' },
        pick: {
          anyOf: [
            { type: 'string', minLength: 2 },
            { type: 'boolean', default: false },
          ],
        },
      },
      $defs: { Node: { type: 'object', properties: { id: { type: 'string', pattern: '^n' } } } },
    };

    const body = await sent({ tools: [{ type: 'function', function: { name: 'n', description: 'N.', parameters } }] });

    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'n',
            description: 'N.',
            parametersJsonSchema: {
              type: 'object',
              properties: {
                node: { $ref: '#/$defs/Node' },
                pick: { anyOf: [{ type: 'string' }, { type: 'boolean', description: 'Default: false.' }] },
              },
              $defs: { Node: { type: 'object', properties: { id: { type: 'string' } } } },
            },
          },
        ],
      },
    ]);
  });
});

describe('GoogleProvider: settings', () => {
  const responseFormat = {
    name: 'verdict',
    schema: argumentsJsonSchema(z.object({ ok: z.boolean(), reason: z.string().max(200).optional() })),
  };

  it('THR-4: maps every setting into generationConfig, with a thinking budget for Gemini 2.5', async () => {
    const body = await sent({
      model: 'gemini-2.5-flash',
      settings: {
        temperature: 0.3,
        maxOutputTokens: 512,
        topP: 0.9,
        stop: ['END', '###'],
        reasoningEffort: 'medium',
        responseFormat,
      },
    });

    expect(body.generationConfig).toEqual({
      temperature: 0.3,
      maxOutputTokens: 512,
      topP: 0.9,
      stopSequences: ['END', '###'],
      thinkingConfig: { thinkingBudget: 8192 },
      responseMimeType: 'application/json',
      responseJsonSchema: {
        type: 'object',
        properties: { ok: { type: 'boolean' }, reason: { type: 'string' } },
        required: ['ok'],
      },
    });
  });

  it('THR-4: reasoning effort is a thinking level for Gemini 3, a budget per level for Gemini 2', async () => {
    const efforts = ['low', 'medium', 'high'] as const;
    for (const _ of efforts) server.enqueue({ text: 'x' }, { text: 'y' });

    for (const reasoningEffort of efforts) {
      await provider().complete(request({ model: 'gemini-3-pro-preview', settings: { reasoningEffort } }));
      await provider().complete(request({ model: 'gemini-2.5-pro', settings: { reasoningEffort } }));
    }

    expect(server.requests.map((recorded) => recorded.body?.generationConfig)).toEqual([
      { thinkingConfig: { thinkingLevel: 'LOW' } },
      { thinkingConfig: { thinkingBudget: 1024 } },
      { thinkingConfig: { thinkingLevel: 'MEDIUM' } },
      { thinkingConfig: { thinkingBudget: 8192 } },
      { thinkingConfig: { thinkingLevel: 'HIGH' } },
      { thinkingConfig: { thinkingBudget: 24576 } },
    ]);
  });

  it('THR-4: sends no generationConfig when no setting is given', async () => {
    const body = await sent({ settings: {} });

    expect(body).not.toHaveProperty('generationConfig');
  });
});
