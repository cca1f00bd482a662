/**
 * Which threads a principal sees, and what it may do to one it sees (IDN-1, IDN-4). The rule:
 *
 * - A thread belongs to the tenant and the subject that started it (a child thread to its root's).
 * - A principal sees the threads of its own tenant that it started, those their owner started with
 *   `shared: true`, and — as `admin` — every thread of its tenant. Any other thread, another tenant's
 *   above all, does not exist for it: the answer is the same 404 as for an id nobody used.
 * - On a thread it sees: `viewer` reads (the thread, its messages, files and frames); `member` also
 *   posts, starts, stops, uploads and answers the thread's questions, client tools and secret
 *   requests; `approver` also answers approvals; deleting takes the owner (member or above) or an admin.
 */
import { type Principal, type Role, roleAtLeast } from './principal.js';

/** What a request does to a thread it names. */
export type ThreadAction = 'read' | 'write' | 'answer' | 'approve' | 'delete';

/** The least role each action takes. */
const LEAST_ROLE: Record<ThreadAction, Role> = {
  read: 'viewer',
  write: 'member',
  answer: 'member',
  approve: 'approver',
  delete: 'member',
};

/** The owner facts of a thread's record. */
export interface ThreadOwnership {
  tenant: string;
  userId: string | null;
  shared: boolean;
}

/** `hidden`: answer 404, as for a thread that does not exist; `forbidden`: answer 403. */
export type ThreadAccess = 'allowed' | 'hidden' | 'forbidden';

export function threadAccess(thread: ThreadOwnership, principal: Principal, action: ThreadAction): ThreadAccess {
  if (thread.tenant !== principal.tenant) return 'hidden';
  const owns = thread.userId !== null && thread.userId === principal.subject;
  const admin = principal.role === 'admin';
  if (!owns && !thread.shared && !admin) return 'hidden';
  if (!roleAtLeast(principal.role, LEAST_ROLE[action])) return 'forbidden';
  if (action === 'delete' && !owns && !admin) return 'forbidden';
  return 'allowed';
}
