/**
 * `requireApproval` (KIND-5) as a guard: a call that needs approval asks; the executor pauses an
 * interactive thread for the answer and denies at once on a headless one. A call a human allowed
 * "always" (the same tool and subjects, ALWAYS-1) runs unasked.
 */
import { withoutNetwork } from '../egress/index.js';
import type { ToolGuard } from '../execute/index.js';
import type { ThreadStore } from '../ports/index.js';
import { alwaysApproved } from './tool-guards.js';

export function approvalGuard(store: ThreadStore): ToolGuard {
  return async (validated) => {
    const { call, tool, args } = validated;
    const rule = tool.definition.requireApproval;
    const needed =
      typeof rule === 'function'
        ? await withoutNetwork(tool.name, 'requireApproval', () =>
            rule(args, { threadId: store.info.id, toolCallId: call.id }),
          )
        : rule;
    if (!needed || (await alwaysApproved(store, validated))) return { action: 'allow' };
    return { action: 'ask', reason: `Tool "${tool.name}" requires approval.` };
  };
}
