/**
 * Answers to waiting tool calls, as the HTTP routes deliver them: a question's answers, an approval,
 * a client tool's output (KIND-3, KIND-4, KIND-5, LOCK-1), and a credential for `store_secret`
 * (VAR-5), which is sealed and never stored as an answer. Each returns the error to answer with, or
 * null once the answer is stored and the loop woken.
 */
import type { FrameSink } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import type {
  InteractionKind,
  McpAuthAnswer,
  McpAuthPayload,
  SecretAnswer,
  SecretRequestPayload,
} from '../../spec/internal.js';
import type { ApiError, ChildOutcome, RuntimeEnv } from '../bindings/index.js';
import type { ThreadVariables } from '../secrets/index.js';
import { storeRefusal, storeSecretVariable } from '../secrets/index.js';
import type { SqliteThreadStore } from '../storage/index.js';
import type { TurnDriver } from '../turn/index.js';
import { type AnswerAuthor, authoredAnswer } from './answer-author.js';
import { checkAnswer } from './answer-check.js';
import { timedOutChildWait } from './wait-deadlines.js';

export interface AnswerDesk {
  ctx: DurableObjectState;
  env: RuntimeEnv;
  registry: Registry;
  store: SqliteThreadStore;
  emit: FrameSink;
  driver: TurnDriver;
  variables: ThreadVariables;
  /** Ends the thread for good (state.terminate); `fromTurn` when a call of the running turn asks. */
  terminate?(fromTurn: boolean): Promise<void>;
}

function notWaiting(toolCallId: string, answered: boolean, what: string): ApiError {
  return {
    status: 409,
    code: 'not_waiting',
    message: answered
      ? `tool call ${toolCallId} was answered already`
      : `tool call ${toolCallId} does not wait for ${what}`,
  };
}

export async function answerWait(
  desk: AnswerDesk,
  kinds: readonly InteractionKind[],
  toolCallId: string,
  answer: unknown,
  by?: AnswerAuthor,
): Promise<ApiError | null> {
  // A secret is never an ordinary answer: it would be stored in plain text (storeSecretAnswer seals it).
  if (kinds.includes('secret')) throw new Error('secrets are answered through storeSecretAnswer');
  const waits = desk.store.interactions(toolCallId).filter((candidate) => kinds.includes(candidate.kind));
  const wait = waits.find((candidate) => !candidate.answered) ?? waits[0];
  if (!wait || wait.answered) {
    const what = kinds.includes('approval') ? 'an approval' : `a ${kinds.join(' or ')} answer`;
    return notWaiting(toolCallId, wait !== undefined, what);
  }
  const problem = checkAnswer(wait, answer, desk.registry.tools.get(wait.toolName));
  if (problem) return { status: 400, code: 'invalid_answer', message: problem };
  desk.store.answerInteraction(toolCallId, wait.kind, authoredAnswer(wait.kind, answer, by));
  const approved = (answer as { approved?: unknown }).approved === true;
  const author = wait.kind === 'approval' && by ? { answered_by: by, approved } : {};
  desk.emit({ type: 'answered', tool_call_id: toolCallId, kind: wait.kind, ...author });
  await desk.driver.wake();
  return null;
}

/**
 * The value is sealed into the thread's variables as a secret, replacing an older one, and the
 * variables are reopened, so the retried tool reads it and the scrubber knows it. The call's stored
 * answer is `{ stored: true }`: the value exists only in the sealed row. A value too short to be a
 * secret is refused (400) and the call keeps waiting.
 */
export async function storeSecretAnswer(
  desk: AnswerDesk,
  threadId: string,
  toolCallId: string,
  value: string,
): Promise<ApiError | null> {
  const secretWait = () => desk.store.interactions(toolCallId).find((candidate) => candidate.kind === 'secret');
  const wait = secretWait();
  if (!wait || wait.answered) return notWaiting(toolCallId, wait !== undefined, 'a secret');
  const { name } = wait.payload as SecretRequestPayload;
  let write: () => void;
  try {
    write = await storeSecretVariable(desk.ctx.storage, threadId, name, value, desk.env.SECRETS_KEY);
  } catch (error) {
    const refused = storeRefusal(error);
    if (!refused) throw error;
    return refused;
  }
  const answer: SecretAnswer = { stored: true };
  // Sealing yielded: the write goes with the answer, so a wait answered or ended meanwhile stays so.
  const stored = desk.store.transaction(desk.ctx.storage, () => {
    if (!desk.store.answerInteraction(toolCallId, 'secret', answer)) return false;
    write();
    return true;
  });
  if (!stored) return notWaiting(toolCallId, secretWait() !== undefined, 'a secret');
  await desk.variables.refresh();
  desk.emit({ type: 'answered', tool_call_id: toolCallId, kind: 'secret' });
  await desk.driver.wake();
  return null;
}

/** A child started for one of this thread's tool calls finished (SUB-7): its outcome answers the call. */
export async function answerFromChild(
  desk: AnswerDesk,
  childId: string,
  toolCallId: string,
  outcome: ChildOutcome,
): Promise<void> {
  if (!desk.store.children().includes(childId)) return;
  if (desk.store.recordAnswer(toolCallId, 'subagent', outcome)) {
    desk.emit({ type: 'answered', tool_call_id: toolCallId, kind: 'subagent' });
    await desk.driver.wake();
    return;
  }
  // WAIT-1: the call stopped waiting at its cap; the answer still reaches the thread, as a message.
  if (timedOutChildWait(desk, toolCallId, childId)) await messageFromChild(desk, childId, lateAnswer(childId, outcome));
}

/** How a child's answer reads when the call that waited for it had ended at its cap. */
function lateAnswer(childId: string, outcome: ChildOutcome): string {
  const files = (outcome.attachments ?? []).map((file) => `\n- ${file.path}`).join('');
  return outcome.status === 'success'
    ? `Subagent thread ${childId}, which was still running when the call waiting for it ended, finished:\n${outcome.result ?? ''}${files ? `\nFiles:${files}` : ''}`
    : `Subagent thread ${childId}, which was still running when the call waiting for it ended, failed: ${outcome.error ?? 'no message'}`;
}

/** A non-blocking child finished: its answer is queued as a message, delivered between steps (SUB-3). */
export async function messageFromChild(desk: AnswerDesk, childId: string, content: string): Promise<void> {
  if (!desk.store.children().includes(childId)) return;
  desk.store.enqueue({ role: 'user', content, metadata: { from_child: childId } });
  await desk.driver.wake();
}

/**
 * An MCP server's OAuth callback arrived (LOCK-4): every call of this thread waiting with `mcp_auth`
 * for that server is answered (the tokens are in sealed storage already), and the loop woken, so
 * each call runs again with them. Returns how many waits were answered.
 */
export async function answerMcpAuthorization(desk: AnswerDesk, server: string, answer: McpAuthAnswer): Promise<number> {
  const waits = desk.store
    .openInteractions()
    .filter((wait) => wait.kind === 'mcp_auth' && (wait.payload as McpAuthPayload).server === server);
  for (const wait of waits) {
    if (desk.store.answerInteraction(wait.toolCallId, 'mcp_auth', answer)) {
      desk.emit({ type: 'answered', tool_call_id: wait.toolCallId, kind: 'mcp_auth' });
    }
  }
  if (waits.length > 0) await desk.driver.wake();
  return waits.length;
}
