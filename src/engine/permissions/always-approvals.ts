/**
 * "Allow always" answers remembered for asks no rule makes (PERM-2, ALWAYS-1): the watchdog's and a
 * tool's `requireApproval`. A rule's ask is remembered as a session rule (tool-guards.ts); these
 * are remembered here, for the rest of the thread, as the tool and the exact subjects of the call
 * that was approved: the same tool touching the same paths, hosts and commands (or, touching none,
 * with the same subject) runs unasked; anything else asks again. A watchdog's deny still refuses.
 * Child threads do not inherit them: a human answered for this thread.
 */
import type { ThreadStore } from '../ports/index.js';
import type { LabelledCheck } from './access-checks.js';

/** Where a thread keeps its remembered approvals: `{ tool, subjects }` entries. */
export const ALWAYS_APPROVED_KEY = 'permissions:always-approved';

interface RememberedApproval {
  tool: string;
  subjects: string;
}

type ApprovalStore = Pick<ThreadStore, 'getValue' | 'setValue'>;

/** A call's subjects as one key: each check's capability (or tool) and canonical subject, sorted. */
export function approvalSubjects(checks: readonly LabelledCheck[]): string {
  return JSON.stringify(checks.map((check) => `${check.permissions.at(-1)} ${check.subject}`).sort());
}

function remembered(store: ApprovalStore): RememberedApproval[] {
  return (store.getValue(ALWAYS_APPROVED_KEY) as RememberedApproval[] | undefined) ?? [];
}

export function approvedAlways(store: ApprovalStore, tool: string, subjects: string): boolean {
  return remembered(store).some((entry) => entry.tool === tool && entry.subjects === subjects);
}

export function rememberApproval(store: ApprovalStore, tool: string, subjects: string): void {
  if (approvedAlways(store, tool, subjects)) return;
  store.setValue(ALWAYS_APPROVED_KEY, [...remembered(store), { tool, subjects }]);
}
