/**
 * EXE-8, VAR-3: the one scrubber every channel passes through, the file writes it guards, and the
 * 8-character minimum for secrets at definition time. The forms come from the hostile corpus.
 */
import { defineAgent, defineModel, definePrompt, defineTool, type VariableDefinition } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { ThreadFiles } from '../../../../src/engine/files/thread-files.js';
import { Registry } from '../../../../src/engine/registry/registry.js';
import {
  createScrubber,
  NO_SECRETS,
  SECRET_PLACEHOLDER,
  scrubMessage,
  secretForms,
} from '../../../../src/engine/secrets/secret-scrubber.js';
import { DefinitionError } from '../../../../src/spec/index.js';
import { MIN_SECRET_LENGTH } from '../../../../src/spec/variables.js';
import { SECRET_FORMS, secretCanary, secretLeaks, secretPayload } from '../../../support/hostile-corpus.js';
import { MemoryFileStore } from '../../../support/memory-store.js';

const decoder = new TextDecoder();

describe('EXE-8: the secret scrubber', () => {
  const { secret, core } = secretCanary();
  const scrubber = createScrubber([secret]);

  for (const form of SECRET_FORMS) {
    it(`EXE-8: the ${form.label} form is replaced inside other text`, () => {
      const text = `before ${form.encode(secret)} after ${form.encode(secret)}`;
      expect(scrubber.text(text)).toBe(`before ${SECRET_PLACEHOLDER} after ${SECRET_PLACEHOLDER}`);
    });
  }

  it('EXE-8: a payload with every form at once keeps nothing of the secret', () => {
    const scrubbed = scrubber.text(secretPayload(secret));
    expect(secretLeaks(scrubbed, secret, core)).toEqual([]);
    expect(scrubbed.split('\n')).toEqual(SECRET_FORMS.map((form) => `${form.label}: ${SECRET_PLACEHOLDER}`));
  });

  it('EXE-8: the JSON of a JSON string holding the secret (escaped twice) is caught too', () => {
    const nested = JSON.stringify(JSON.stringify({ token: secret }));
    expect(scrubber.text(nested)).not.toContain(core);
    expect(JSON.parse(JSON.parse(scrubber.text(nested)))).toEqual({ token: SECRET_PLACEHOLDER });
  });

  it('EXE-8: base64 without padding and URL-safe base64 of the value are caught', () => {
    const forms = secretForms('token-with-??>>-and-more');
    const padded = btoa('token-with-??>>-and-more');
    expect(forms).toContain(padded.replace(/=+$/, ''));
    expect(forms).toContain(padded.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'));
  });

  it('EXE-8: longest first: a secret containing another is replaced whole', () => {
    const both = createScrubber(['password', 'password-extended']);
    expect(both.text('a password-extended b password c')).toBe('a [secret] b [secret] c');
  });

  it('EXE-8: JSON-like values are scrubbed deep, keys included; other values pass', () => {
    const date = new Date(0);
    const list = [secret, { nested: `x ${encodeURIComponent(secret)} y` }, 42, null, true];
    const value = { [secret]: list, plain: 'kept', when: date };
    const scrubbed = scrubber.value(value);
    expect(scrubbed).toEqual({
      [SECRET_PLACEHOLDER]: [SECRET_PLACEHOLDER, { nested: `x ${SECRET_PLACEHOLDER} y` }, 42, null, true],
      plain: 'kept',
      when: date,
    });
    expect(scrubbed.when).toBe(date);
    expect(list[0]).toBe(secret);
  });

  it('EXE-8: a "__proto__" key stays a key and a circular value is refused', () => {
    const parsed = JSON.parse(`{"__proto__": {"k": "${secret.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"}}`);
    const scrubbed = scrubber.value(parsed) as Record<string, unknown>;
    expect(Object.getPrototypeOf(scrubbed)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(scrubbed, '__proto__')?.value).toEqual({ k: SECRET_PLACEHOLDER });
    const circular: Record<string, unknown> = { a: 1 };
    circular.self = circular;
    expect(() => scrubber.value(circular)).toThrow(/circular/);
  });

  it('EXE-8: without secrets (or with values under the minimum) nothing is copied or changed', () => {
    const value = { a: ['b'] };
    expect(createScrubber([])).toBe(NO_SECRETS);
    expect(createScrubber(['x'.repeat(MIN_SECRET_LENGTH - 1)])).toBe(NO_SECRETS);
    expect(NO_SECRETS.value(value)).toBe(value);
    expect(NO_SECRETS.text('xxxxxxx')).toBe('xxxxxxx');
  });

  it('EXE-8: a message is scrubbed in content, tool call arguments, metadata and envelope; ids stay', () => {
    const message = scrubMessage(scrubber, {
      id: secret,
      role: 'assistant' as const,
      content: `c ${secret}`,
      tool_calls: [
        { id: 'call_1', type: 'function' as const, function: { name: 'f', arguments: JSON.stringify({ secret }) } },
      ],
      metadata: { note: secret },
      envelope: { type: 'output' as const, data: secret, metadata: { duration_ms: 1 } },
    });
    expect(message.id).toBe(secret);
    expect(message.content).toBe(`c ${SECRET_PLACEHOLDER}`);
    expect(message.tool_calls?.[0]?.function.arguments).toBe(JSON.stringify({ secret: SECRET_PLACEHOLDER }));
    expect(message.metadata).toEqual({ note: SECRET_PLACEHOLDER });
    expect(message.envelope?.data).toBe(SECRET_PLACEHOLDER);
    const plain = { role: 'user' as const, content: 'hi' };
    expect(scrubMessage(NO_SECRETS, plain)).toBe(plain);
  });
});

describe('EXE-8: file writes pass through the scrubber', () => {
  const { secret, core } = secretCanary();

  it('EXE-8: text content, as a string or as UTF-8 bytes, is stored scrubbed', async () => {
    const files = new ThreadFiles(new MemoryFileStore(), createScrubber([secret]));
    const asText = await files.write('/a.txt', secretPayload(secret));
    await files.write('/b.txt', new TextEncoder().encode(secretPayload(secret)));
    for (const path of ['/a.txt', '/b.txt']) {
      const stored = decoder.decode((await files.read(path)) as Uint8Array);
      expect(secretLeaks(stored, secret, core)).toEqual([]);
      expect(stored).toContain(SECRET_PLACEHOLDER);
    }
    expect(asText.size).toBe(
      new TextEncoder().encode(decoder.decode((await files.read('/a.txt')) as Uint8Array)).length,
    );
  });

  it('EXE-8: bytes that are not UTF-8 pass as they are, unless they hold a secret: then nothing is written', async () => {
    const store = new MemoryFileStore();
    const files = new ThreadFiles(store, createScrubber([secret]));
    const binary = new Uint8Array([0xff, 0xfe, 0x00, 0x80, 0x41]);
    await files.write('/blob.bin', binary);
    expect(await files.read('/blob.bin')).toEqual(binary);
    const holding = new Uint8Array([0xff, 0xfe, ...new TextEncoder().encode(secret), 0x80]);
    await expect(files.write('/secret.bin', holding)).rejects.toThrow(
      'the content holds a secret value in a form that cannot be scrubbed',
    );
    // The secret's URL-safe base64 is a name a path may hold.
    const base64 = btoa(String.fromCharCode(...new TextEncoder().encode(secret))).replace(/=+$/, '');
    const urlSafe = base64.replace(/\+/g, '-').replace(/\//g, '_');
    await expect(files.write(`/${urlSafe}.txt`, 'plain')).rejects.toThrow('the file name holds a secret value');
    expect(store.paths()).toEqual(['/blob.bin']);
  });
});

describe('VAR-3: a secret default shorter than 8 characters is a definition error', () => {
  const short: VariableDefinition = {
    name: 'API_KEY',
    type: 'secret',
    required: false,
    description: '',
    default: 'abc',
  };
  const ok = async () => ({ status: 'success' as const, result: 'ok' });

  it('VAR-3: defineTool, definePrompt and defineAgent refuse it, naming the variable', () => {
    const calls = [
      () => defineTool({ description: 'X.', execute: ok, variables: [short] }),
      () => definePrompt({ name: 'p', prompt: '', model: 'm', variables: [short] }),
      () => defineAgent({ name: 'a', sideA: { prompt: 'p' }, variables: [short] }),
    ];
    for (const call of calls) {
      expect(call).toThrow(DefinitionError);
      expect(call).toThrow(/"API_KEY".*shorter than 8 characters/);
    }
    expect(() =>
      defineTool({ description: 'X.', execute: ok, variables: [{ ...short, default: 'abcdefgh' }] }),
    ).not.toThrow();
  });

  it('VAR-3: a short default merged onto a secret from another level fails the registry', () => {
    const build = () =>
      new Registry({
        tools: {
          call_api: defineTool({
            description: 'Call the API.',
            execute: ok,
            variables: [{ name: 'API_KEY', type: 'secret', required: true, description: '' }],
          }),
        },
        models: [defineModel({ name: 'm', provider: 'scripted', script: () => ({ text: 'x' }) })],
        prompts: [definePrompt({ name: 'p', prompt: '', model: 'm', tools: ['call_api'] })],
        agents: [
          defineAgent({
            name: 'a',
            sideA: { prompt: 'p' },
            variables: [{ name: 'API_KEY', type: 'text', required: false, description: '', default: 'abc' }],
          }),
        ],
      });
    expect(build).toThrow(DefinitionError);
    expect(build).toThrow(/agent "a".*"API_KEY"/);
  });
});
