/**
 * How a child thread tells its parent how a session ended (SUB-7): an answer or a failure for the
 * tool call that waits for it, or a message for a non-blocking or resumable child. Never silence:
 * a parent that cannot be reached is tried again from the child's alarm.
 */

import type { TurnOutcome } from '../../engine/conversation/index.js';
import { lastUserIndex } from '../../engine/conversation/index.js';
import type { AttachmentRef, Message } from '../../spec/index.js';
import type { ChildOutcome, RpcResult, RuntimeEnv } from '../bindings/index.js';
import { R2FileStore, threadStub } from '../bindings/index.js';
import type { ThreadMeta, ThreadRecord } from '../storage/index.js';

/** Attachments of the child's tool results since its first user message: what it produced. */
export function producedFiles(log: readonly Message[]): AttachmentRef[] {
  return log
    .filter((message) => message.role === 'tool' && message.depth === 0)
    .flatMap((message) => message.attachments ?? []);
}

export function childOutcome(childId: string, outcome: TurnOutcome, log: readonly Message[]): ChildOutcome | null {
  switch (outcome.kind) {
    case 'waiting':
      return null;
    case 'done': {
      // DEF-6: a session ended by a stop tool answers with what the tool gave.
      if (outcome.reason === 'stop_tool') return { status: 'success', result: outcome.answer, child_id: childId };
      const answer = [...log].reverse().find((message) => message.role === 'assistant' && message.depth === 0);
      return { status: 'success', result: answer?.content ?? '', child_id: childId };
    }
    case 'stopped':
      return { status: 'error', error: 'The child thread was stopped before it finished.', child_id: childId };
    default:
      return { status: 'error', error: `The child thread failed: ${outcome.message}`, child_id: childId };
  }
}

/** How long a child waits before trying again to reach a parent it could not reach (SUB-7). */
export const REPORT_RETRY_MS = 5_000;
/** Attempts before a child gives up reporting: a minute of a parent that cannot be reached. */
const REPORT_ATTEMPTS = 12;

/** A report that could not be delivered, kept for the next try. */
interface PendingReport {
  outcome: TurnOutcome;
  /** The log's length when the session ended: the report is rebuilt from that much of it. */
  length: number;
  attempts: number;
}

/**
 * Tells the parent how this child's session ended: once for a child a tool call waits for, every
 * session for a resumable instance. Returns true when the parent could not be reached: the report
 * is kept and `retryReport` tries again (call it after REPORT_RETRY_MS).
 */
export async function reportToParent(
  env: RuntimeEnv,
  meta: ThreadMeta,
  record: ThreadRecord,
  outcome: TurnOutcome,
  log: readonly Message[],
  attempts = 1,
  logError: (line: string) => void = console.error,
): Promise<boolean> {
  if (!record.parentId || !(record.reportTo || record.notifyParent)) return false;
  // A resumable instance reports the end of every session (marked by the log's length then); any
  // other child only its first.
  const mark = record.resumable ? log.length : true;
  const previous = meta.get<number | boolean>('reported');
  if (previous === mark) return false;
  const report = childOutcome(record.id, outcome, log);
  if (!report) return false;
  meta.set('reported', mark);
  try {
    const parent = threadStub(env, record.parentId);
    const produced = producedFiles(record.resumable ? log.slice(lastUserIndex(log) + 1) : log);
    // ATT-4, ATT-6: the parent copies them itself, under its own quota; a report is never lost for them.
    if (produced.length > 0) {
      const paths = produced.map((file) => file.path);
      // RPC's serialisation types lose the result's type: it is the RpcResult takeChildFiles answers.
      const taken = (await parent.takeChildFiles(record.id, paths)) as RpcResult<AttachmentRef[]>;
      if (taken.ok) report.attachments = taken.value;
      else if (taken.error.status === 413) withoutFiles(report, taken.error.message);
    }
    const delivery = record.reportTo
      ? await parent.childFinished(record.id, record.reportTo, report)
      : await parent.childMessage(record.id, childMessage(record, report));
    // A deleted parent: nothing waits for the report, so no retry, and no copied file stays behind.
    if (delivery === 'parent_gone') {
      const files = new R2FileStore(env.FILES, record.parentId);
      await Promise.all((report.attachments ?? []).map((file) => files.delete(file.path)));
    }
    return false;
  } catch (error) {
    meta.set('reported', previous ?? false);
    const retry = attempts < REPORT_ATTEMPTS;
    if (retry) meta.set('pending_report', { outcome, length: log.length, attempts } satisfies PendingReport);
    const next = retry ? `; trying again in ${REPORT_RETRY_MS / 1000} s` : `; gave up after ${attempts} attempts`;
    logError(`child ${record.id} could not report to ${record.parentId}: ${(error as Error).message}${next}`);
    return retry;
  }
}

/** A report whose files the parent had no room for says so, in the answer the parent's model reads. */
function withoutFiles(report: ChildOutcome, why: string): void {
  const note = `[The files this subagent produced could not be copied to the parent thread: ${why}]`;
  if (report.status === 'success') report.result = `${report.result ?? ''}\n\n${note}`;
  else report.error = `${report.error ?? ''}\n\n${note}`;
}

/** Tries again to deliver a report the parent did not receive; true when another try is due. */
export async function retryReport(
  env: RuntimeEnv,
  meta: ThreadMeta,
  record: ThreadRecord,
  log: readonly Message[],
  logError: (line: string) => void = console.error,
): Promise<boolean> {
  const pending = meta.get<PendingReport>('pending_report');
  if (!pending) return false;
  meta.set('pending_report', null);
  const sent = log.slice(0, pending.length);
  return reportToParent(env, meta, record, pending.outcome, sent, pending.attempts + 1, logError);
}

/** How a non-blocking child's outcome reads as a message to its parent (SUB-3). */
function childMessage(record: ThreadRecord, report: ChildOutcome): string {
  const name = record.tags.find((tag) => tag.startsWith('name:'))?.slice(5);
  const who = `Subagent ${record.agentId}${name ? ` "${name}"` : ''} (thread ${record.id})`;
  const files = (report.attachments ?? []).map((file) => `\n- ${file.path}`).join('');
  return report.status === 'success'
    ? `${who} finished:\n${report.result ?? ''}${files ? `\nFiles:${files}` : ''}`
    : `${who} failed: ${report.error ?? 'no message'}`;
}

/** A thread's reports to its parent, retried from its alarm (see ThreadObject.alarm). */
export class ParentReporter {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: RuntimeEnv,
    private readonly meta: ThreadMeta,
    /** The thread's scrubbed log (EXE-8). */
    private readonly logError: (line: string) => void,
  ) {}

  /** Reports in flight, one after the other. */
  private sending: Promise<void> = Promise.resolve();

  /**
   * Reports a session's end, off the turn's critical path. A resumable instance's sessions end in
   * order and the parent must hear them in that order (SUB-4), so reports go one at a time, each
   * built from the log as it was when its session ended.
   */
  report(record: ThreadRecord, outcome: TurnOutcome, log: readonly Message[]): void {
    const ended = log.slice();
    this.sending = this.sending
      .then(() => reportToParent(this.env, this.meta, record, outcome, ended, 1, this.logError))
      .then((retry) => this.schedule(retry))
      .catch((error) => this.logError(`report to ${record.parentId} failed: ${(error as Error).message}`));
    this.ctx.waitUntil(this.sending);
  }

  /** From the alarm: tries again to deliver a report the parent did not receive. */
  async retry(record: ThreadRecord, log: readonly Message[]): Promise<void> {
    await this.schedule(await retryReport(this.env, this.meta, record, log, this.logError));
  }

  private async schedule(retry: boolean): Promise<void> {
    if (!retry) return;
    const due = Date.now() + REPORT_RETRY_MS;
    const alarm = await this.ctx.storage.getAlarm();
    if (alarm === null || alarm > due) await this.ctx.storage.setAlarm(due);
  }
}
