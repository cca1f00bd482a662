import { defineAgent } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { lintTools } from '../../../src/spec/tool-lint.js';
import { lockedTools } from '../../../src/tools/index.js';
import { LOCKED_TOOL_IDS } from '../../../src/tools/locked-ids.js';
import { subagentLifecycleTools } from '../../../src/tools/subagents/subagent-lifecycle.js';

describe('built-in tools', () => {
  const tools = lockedTools([], () => []);

  it('LOCK-1: the locked set is registered under exactly its ids, beside store_secret (VAR-5) and run_code (CODE-1)', () => {
    expect(Object.keys(tools).sort()).toEqual([...LOCKED_TOOL_IDS, 'store_secret', 'run_code'].sort());
  });

  it('DEF-7: every built-in tool passes the tool-design lint (findings are failures for built-ins)', () => {
    expect(lintTools(tools)).toEqual([]);
  });

  it('LOCK-7: every locked tool carries an ACP kind', () => {
    for (const [name, tool] of Object.entries(tools)) expect(tool.acpKind, name).toMatch(/^[a-z_]+$/);
  });
});

describe('runtime-injected tools', () => {
  it('DEF-7, SUB-4: the subagent lifecycle tools pass the tool-design lint', () => {
    const agent = defineAgent({ name: 'writer', toolDescription: 'Write drafts', sideA: { prompt: 'p' } });
    const injected = subagentLifecycleTools([
      { agent, config: { name: 'writer', resumable: { receives_messages: 'side_a' } } },
    ]);
    expect(lintTools(Object.fromEntries(injected.map((tool) => [tool.name, tool.definition])))).toEqual([]);
  });
});
