/**
 * `concurrent: true` is a definition error on a tool that is not `readOnly` (RO-1, seed 002: only a
 * tool without side effects may run in parallel), naming the tool; every built-in concurrent tool
 * is read-only.
 */
import { DefinitionError, defineTool, type ToolResult } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { builtinTools } from '../../../src/tools/index.js';

const ok = async (): Promise<ToolResult> => ({ status: 'success', result: 'ok' });

describe('RO-1: concurrent tools are read-only', () => {
  it('RO-1: defineTool with concurrent: true and no readOnly throws a DefinitionError naming the tool', () => {
    for (const readOnly of [undefined, false]) {
      let thrown: unknown;
      try {
        defineTool({ description: 'Append a line to the shared log', concurrent: true, readOnly, execute: ok });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(DefinitionError);
      expect((thrown as Error).message).toContain('defineTool "Append a line to the shared log"');
      expect((thrown as Error).message).toContain('concurrent: true needs readOnly: true');
    }
  });

  it('RO-1: a read-only tool may be concurrent, and a tool may be read-only without being concurrent', () => {
    const both = defineTool({
      description: 'Count the lines of a note',
      readOnly: true,
      concurrent: true,
      execute: ok,
    });
    expect([both.readOnly, both.concurrent]).toEqual([true, true]);
    const plain = defineTool({ description: 'Count the words of a note', readOnly: true, execute: ok });
    expect([plain.readOnly, plain.concurrent]).toEqual([true, false]);
  });

  it('RO-1: every built-in concurrent tool is read-only', () => {
    const concurrent = Object.entries(builtinTools).filter(([, tool]) => tool.concurrent);
    expect(concurrent.map(([name]) => name).sort()).toEqual(['glob', 'grep', 'read', 'web_fetch']);
    for (const [, tool] of concurrent) expect(tool.readOnly).toBe(true);
  });
});
