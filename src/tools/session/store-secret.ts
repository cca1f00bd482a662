/**
 * `store_secret` (VAR-5, seed 002 "Credential auto-heal"): after a tool failed for a missing or
 * rejected credential, the model names the variable and the thread waits for a human to enter the
 * value through `POST /api/threads/:id/secrets`. The value goes straight into the thread's sealed
 * variables (VAR-3): the model, the message log, the interaction and the frames only ever learn that
 * it was stored. Only a declared variable can be stored, and at most `MAX_SECRET_ROUNDS` times per
 * failing tool per turn (CRED-1; per variable when no tool failed), so a credential that keeps
 * failing is reported instead of asked for forever.
 */
import { z } from 'zod';
import type { ThreadState } from '../../spec/index.js';
import { defineInteractiveTool } from '../../spec/index.js';
import type { SecretAnswer, SecretRequestPayload } from '../../spec/internal.js';

/** The id under which the tool is registered and offered. */
export const STORE_SECRET_TOOL = 'store_secret';

/** store_secret rounds allowed for one failing tool in one turn (seed 002: two per failing tool). */
export const MAX_SECRET_ROUNDS = 2;

/** The key (in the tool's value space of the thread store) counting this turn's rounds. */
const ROUNDS_KEY = 'store_secret:rounds';

interface Rounds {
  /** The id of the user message that started the turn the counts belong to. */
  turn: string;
  counts: Record<string, number>;
}

const args = z.object({
  name: z.string().min(1).max(256).describe('The variable to store, as the failing tool declares it'),
  reason: z
    .string()
    .max(2000)
    .default('')
    .describe('Why the credential is needed, shown to the user; never include the value'),
});

/**
 * Whether some tool, prompt or agent of the thread declares `name` (or it holds a value). ThreadState
 * tells a declared variable without a value from an unknown one by `env`'s refusal; the node test
 * of this tool pins that message.
 */
async function isDeclared(state: ThreadState, name: string): Promise<boolean> {
  if (name in state.tenvs) return true;
  try {
    await state.env(name);
    return true;
  } catch (error) {
    return !(error instanceof Error && error.message.startsWith('unknown variable'));
  }
}

/** The id of the newest user message: a new one starts a new turn and resets the rounds. */
async function currentTurn(state: ThreadState): Promise<string> {
  const { messages: log } = await state.getMessages({ limit: Infinity, includeSilent: true });
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index];
    if (message?.role === 'user') return message.id;
  }
  return '';
}

/**
 * CRED-1: what the rounds are counted by: the tool whose failure the call answers (the newest failed
 * call of this turn other than store_secret), so a tool with two credentials still gets two rounds in
 * all; without one, the variable.
 */
async function failingTool(state: ThreadState, name: string): Promise<string> {
  const { messages: log } = await state.getMessages({ limit: Infinity, includeSilent: true });
  for (let index = log.length - 1; index >= 0; index--) {
    const message = log[index];
    if (!message || message.role === 'user') break;
    if (message.role === 'tool' && message.tool_status === 'error' && message.name !== STORE_SECRET_TOOL) {
      return `tool ${message.name}`;
    }
  }
  return `variable ${name}`;
}

/** Counts one more round for `counter`; false when the turn has used its rounds already. */
async function takeRound(state: ThreadState, counter: string): Promise<boolean> {
  const turn = await currentTurn(state);
  const stored = await state.getValue<Rounds>(ROUNDS_KEY);
  const counts = stored?.turn === turn ? stored.counts : {};
  const used = counts[counter] ?? 0;
  if (used >= MAX_SECRET_ROUNDS) return false;
  await state.setValue(ROUNDS_KEY, { turn, counts: { ...counts, [counter]: used + 1 } } satisfies Rounds);
  return true;
}

export const storeSecret = defineInteractiveTool({
  description: 'Ask the user to enter the value of a credential variable and store it encrypted',
  args,
  acpKind: 'other',
  interaction: {
    begin: async (state, input) => {
      if (!(await isDeclared(state, input.name))) {
        return {
          status: 'error',
          error: `No tool, prompt or agent of this thread declares a variable named "${input.name}"; only a declared variable can be stored. Use the exact name the failing tool needs.`,
        };
      }
      const counter = await failingTool(state, input.name);
      if (!(await takeRound(state, counter))) {
        const failing = counter.startsWith('tool ') ? `the failing ${counter}` : `"${input.name}"`;
        return {
          status: 'error',
          error: `Credentials for ${failing} were already asked for ${MAX_SECRET_ROUNDS} times in this turn. Stop retrying: tell the user the credential problem (which tool failed and why) and let them fix it.`,
        };
      }
      const payload: SecretRequestPayload = { name: input.name, reason: input.reason };
      return { kind: 'secret', payload };
    },
    complete: async (_state, input, answer) => {
      if ((answer as SecretAnswer | null)?.stored !== true) {
        return {
          status: 'error',
          error: `The user did not provide "${input.name}". Tell the user the credential problem instead of retrying.`,
        };
      }
      return {
        status: 'success',
        result: `The user stored a new value for "${input.name}" (the value is kept from you on purpose). Retry the tool call that failed.`,
      };
    },
  },
});
