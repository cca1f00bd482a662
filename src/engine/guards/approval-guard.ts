/**
 * `requireApproval` (KIND-5) as a guard: a call that needs approval asks; the executor pauses an
 * interactive thread for the answer and denies at once on a headless one.
 */
import { withoutNetwork } from '../egress/index.js';
import type { ToolGuard } from '../execute/index.js';

export function approvalGuard(threadId: string): ToolGuard {
  return async ({ call, tool, args }) => {
    const rule = tool.definition.requireApproval;
    const needed =
      typeof rule === 'function'
        ? await withoutNetwork(tool.name, 'requireApproval', () => rule(args, { threadId, toolCallId: call.id }))
        : rule;
    return needed ? { action: 'ask', reason: `Tool "${tool.name}" requires approval.` } : { action: 'allow' };
  };
}
