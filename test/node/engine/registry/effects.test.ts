/**
 * Effects as an application registers them (EFF-1 to EFF-3, EFF-5): `defineEffect`'s two forms and its
 * refusals, the names the registry accepts at startup, the example application's effects (one file per
 * effect under agents/effects/, registered by its file's name), and the arguments `scheduleEffect`
 * refuses before anything is stored.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as app from '../../../../agents/index.js';
import { Registry } from '../../../../src/engine/registry/index.js';
import { effectArgsProblem } from '../../../../src/engine/state/index.js';
import { DefinitionError, defineEffect, type ThreadState } from '../../../../src/spec/index.js';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');
const noop = async () => {};

describe('defineEffect', () => {
  it('EFF-1: takes a description, an optional Zod object schema, a handler and options', async () => {
    const seen: unknown[] = [];
    const withArgs = defineEffect(
      'Send a digest',
      z.object({ topic: z.string() }),
      async (_state, args) => {
        seen.push(args.topic);
      },
      { idempotent: true, timeout: 5_000 },
    );
    expect(withArgs).toMatchObject({ kind: 'effect', description: 'Send a digest', idempotent: true, timeout: 5_000 });
    expect(withArgs.args).not.toBeNull();
    await withArgs.handler({} as ThreadState, { topic: 'billing' });
    expect(seen).toEqual(['billing']);
    const bare = defineEffect('Clean up', noop);
    expect(bare).toMatchObject({ args: null, idempotent: false, timeout: 30_000 });
    expect(Object.isFrozen(bare)).toBe(true);
  });

  it('EFF-1: refuses a missing description or handler, a schema that is not a Zod object and a bad timeout', () => {
    expect(() => defineEffect('', noop)).toThrow(DefinitionError);
    expect(() => defineEffect('x', z.string() as never, noop)).toThrow(/Zod object schema/);
    expect(() => defineEffect('x', z.object({}), 'nope' as never)).toThrow(/handler must be a function/);
    expect(() => defineEffect('x', noop, { timeout: 0 })).toThrow(/timeout/);
    expect(() => defineEffect('x', noop, { timeout: 10 * 60_000 })).toThrow(/timeout/);
  });
});

describe('effect names at startup', () => {
  it('EFF-2: a name that is not snake_case, or an entry that is not an effect, stops the runtime naming the entry', () => {
    for (const name of ['SendDigest', 'send-digest', '_x', 'a/b/c', 'Pkg/send', 'a'.repeat(65), '']) {
      expect(() => new Registry({ effects: { [name]: defineEffect('x', noop) } }), name).toThrow(DefinitionError);
    }
    expect(() => new Registry({ effects: { send_digest: { kind: 'function' } as never } })).toThrow(
      'effect "send_digest" (effects.send_digest) is not a defineEffect() definition',
    );
  });

  it('EFF-3: a packed {package}/{effect} name is its own namespace beside the application effect of the same name', () => {
    const own = defineEffect('own', noop);
    const packed = defineEffect('packed', noop);
    const registry = new Registry({ effects: { send_digest: own, 'standardagent-sales/send_digest': packed } });
    expect(registry.effects.get('send_digest')).toBe(own);
    expect(registry.effects.get('standardagent-sales/send_digest')).toBe(packed);
    expect(registry.effects.get('other/send_digest')).toBeUndefined();
  });

  it("EFF-1: the example application's effects are one file each under agents/effects/, registered by the file's name", async () => {
    const files = readdirSync(join(ROOT, 'agents', 'effects')).map((file) => file.replace(/\.ts$/, ''));
    expect(Object.keys(app.effects).sort()).toEqual(files.sort());
    for (const name of files) {
      const module = (await import(`../../../../agents/effects/${name}.ts`)) as { default: unknown };
      expect(app.effects[name as keyof typeof app.effects]).toBe(module.default);
    }
    expect(new Registry({ effects: app.effects }).effects.get('send_reminder')).toBe(app.effects.send_reminder);
  });
});

describe('scheduled arguments', () => {
  const effect = defineEffect('e', z.object({ when: z.string(), n: z.number().optional() }), noop);

  it('EFF-5: what JSON would not give back the same is refused, with the path', () => {
    expect(effectArgsProblem('e', effect, { when: 'now' })).toBeNull();
    expect(effectArgsProblem('e', effect, { when: new Date(0) })).toContain('args.when is a Date');
    expect(effectArgsProblem('e', effect, { when: 'x', n: Number.POSITIVE_INFINITY })).toContain('args.n is Infinity');
    expect(effectArgsProblem('e', effect, { when: 'x', extra: undefined })).toContain('args.extra is undefined');
    expect(effectArgsProblem('e', effect, { when: 'x', deep: [{ f: () => 1 }] })).toContain(
      'args.deep[0].f is a function',
    );
    expect(effectArgsProblem('e', effect, [] as never)).toContain('must be an object');
    expect(effectArgsProblem('e', effect, { when: 'x'.repeat(70_000) })).toContain('larger than');
    expect(effectArgsProblem('e', effect, { when: 1 })).toContain('invalid arguments');
  });
});
