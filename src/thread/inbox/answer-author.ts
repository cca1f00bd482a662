/**
 * Who answered a wait (IDN-10). An approval remembers its answerer: the stored answer carries
 * `answered_by` (the runtime's, whatever the caller sent), the `answered` frame names them, the
 * call's result message shows them, and the tenant's audit log records the approval and any
 * "allow always" rule it added.
 */
import type { ApprovalAnswer, InteractionKind } from '../../spec/internal.js';
import type { Principal } from '../access/index.js';
import { appendAudit } from '../audit/index.js';
import type { RuntimeEnv } from '../bindings/index.js';

/** The answerer as the log shows them: never how they signed in, which is the audit log's. */
export interface AnswerAuthor {
  subject: string;
  role: Principal['role'];
}

export function authorOf(principal: Principal): AnswerAuthor {
  return { subject: principal.subject, role: principal.role };
}

/** The answer as stored: an approval's with its answerer; any other kind as given. */
export function authoredAnswer(kind: InteractionKind, answer: unknown, by: AnswerAuthor | undefined): unknown {
  if (kind !== 'approval' || !by || typeof answer !== 'object' || answer === null) return answer;
  return { ...(answer as ApprovalAnswer), answered_by: by };
}

/** Records an approval, and the "allow always" rule it added, in the tenant's audit log. */
export async function auditApproval(
  env: RuntimeEnv,
  tenant: string,
  principal: Principal,
  call: { threadId: string; toolCallId: string; toolName: string },
  answer: ApprovalAnswer,
): Promise<void> {
  const actor = { subject: principal.subject, role: principal.role, via: principal.via };
  const target = `${call.threadId}/${call.toolCallId}`;
  await appendAudit(env.DB, {
    tenant,
    actor,
    action: 'approval.answered',
    target,
    detail: { tool: call.toolName, approved: answer.approved === true, always: answer.always === true },
  });
  if (answer.approved && answer.always) {
    await appendAudit(env.DB, {
      tenant,
      actor,
      action: 'permission.always_added',
      target,
      detail: { tool: call.toolName },
    });
  }
}
