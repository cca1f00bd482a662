/**
 * The example application's hooks (HOOK-2): every file under agents/hooks/ is registered, the
 * workspace prompt names `trim_history`, and that hook sends a very long thread's newest messages
 * only, never starting on a tool result whose call it cut off.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import trimHistory from '../../../../agents/hooks/trim_history.js';
import * as app from '../../../../agents/index.js';
import { Registry } from '../../../../src/engine/registry/index.js';
import type { Message, ThreadState } from '../../../../src/spec/index.js';
import { lockedTools } from '../../../../src/tools/index.js';
import { agentTool, subagentLifecycleTools } from '../../../../src/tools/subagents/index.js';
import { storedMessage } from '../../../support/stored-message.js';

const ROOT = join(import.meta.dirname, '..', '..', '..', '..');

const message = (seq: number, role: Message['role']): Message =>
  storedMessage(seq, { role, content: `${role} ${seq}` });

describe('HOOK-2: the example application', () => {
  it('HOOK-2: each agents/hooks/ file is registered by its id, and the workspace prompt runs trim_history', () => {
    const files = readdirSync(join(ROOT, 'agents', 'hooks')).map((file) => file.replace(/\.ts$/, ''));
    expect(app.hooks.map((hook) => hook.id).sort()).toEqual(files.sort());
    const registry = new Registry(
      app,
      lockedTools(app.skills, () => []),
      agentTool,
      subagentLifecycleTools,
    );
    const workspace = registry.agent('workspace');
    const hooks = registry.hooksFor(registry.prompt('workspace'), workspace);
    expect(hooks.get('filter_messages')?.map((hook) => hook.id)).toEqual(['trim_history']);
    expect(registry.hooksFor(registry.prompt('assistant'), registry.agent('assistant')).size).toBe(0);
  });

  it('HOOK-8: trim_history keeps a short history as it is and a long one to its newest 200, never from a tool result', async () => {
    const state = {} as ThreadState;
    const short = [message(1, 'user'), message(2, 'assistant')];
    expect(await trimHistory.execute(state, short)).toEqual(short);
    const long = Array.from({ length: 450 }, (_, index) =>
      message(index + 1, index % 3 === 0 ? 'user' : index % 3 === 1 ? 'assistant' : 'tool'),
    );
    const kept = (await trimHistory.execute(state, long)) as Message[];
    expect(kept.length).toBeLessThanOrEqual(200);
    expect(kept.length).toBeGreaterThan(195);
    expect(kept[0]?.role).not.toBe('tool');
    expect(kept.at(-1)).toBe(long.at(-1));
  });
});
