/**
 * The development Worker's deferred definition errors (DEF-1): once deferred, a defineTool that fails
 * its checks returns a placeholder, and the registry throws the same DefinitionError naming the key
 * the tool is registered by. Before deferring, defineTool throws at once, as a deployed Worker does.
 * (A file of its own: deferring is a switch for the whole module instance, kept for the isolate.)
 */
import { DefinitionError, defineTool, type ToolResult } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Registry } from '../../../src/engine/registry/index.js';
import { deferDefinitionErrors } from '../../../src/spec/internal.js';

const ok = async (): Promise<ToolResult> => ({ status: 'success', result: 'ok' });
const broken = () =>
  defineTool({ description: 'Get the weather for a city', args: z.object({ when: z.date() }), execute: ok });

describe('deferred definition errors', () => {
  it('DEF-1: throw at definition until deferred; then the registry throws, naming the tool key', () => {
    expect(broken).toThrow(DefinitionError);

    deferDefinitionErrors();
    const placeholder = broken();
    // A well-formed tool is still checked and returned as before.
    const fine = defineTool({ description: 'Fine', execute: ok });
    expect(fine.kind).toBe('function');

    let thrown: unknown;
    try {
      new Registry({ tools: { fine, get_weather: placeholder } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DefinitionError);
    expect((thrown as Error).message).toMatch(
      /^tool "get_weather" \(tools\.get_weather\): defineTool "Get the weather for a city" \(node\/spec\/deferred-definition-errors\.test\.ts:\d+\): argument "when" uses the Zod type "date"/,
    );
    // Other errors than definition errors are never deferred.
    expect(() => defineTool(null as never)).toThrow(TypeError);
  });
});
