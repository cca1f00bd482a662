/**
 * `state.setEnv` in the thread (the specification's thread-scoped variables): one value stored as
 * the thread's own, sealed with its SecretBox when secret (as `store_secret` does, VAR-5), and the
 * variables reopened before the call returns, so `env`, `tenvs` and the scrubber of everything the
 * thread stores or shows (EXE-8) know it at once. A secret set now is never shown later.
 *
 * Names need not be declared: the specification's runtime takes any. A name a definition declares
 * keeps its declaration's type. A value replacing a secret stays a secret, and the replaced secret
 * stays hidden for the object's lifetime: something may still echo it.
 */
import type { ThreadInfo } from '../../engine/ports/index.js';
import type { Registry } from '../../engine/registry/index.js';
import type { RuntimeEnv } from '../bindings/index.js';
import type { ThreadVariables } from './thread-variables.js';
import { storeVariables } from './variables.js';

export interface EnvHost {
  readonly ctx: DurableObjectState;
  readonly env: RuntimeEnv;
  readonly registry: Registry;
  readonly variables: ThreadVariables;
  info(): ThreadInfo;
}

/** A variable's name: what a definition could declare. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
/** The longest value `setEnv` stores: variables are configuration, not files. */
export const MAX_VARIABLE_CHARS = 32 * 1024;

export type VariableType = 'text' | 'secret';

/** Why `setEnv` refuses: the message names the variable and what to do. */
export class EnvRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvRefused';
  }
}

function checkInput(name: string, value: string): void {
  // A name an object already answers (`__proto__`, `constructor`) would read as a value it is not.
  if (!VARIABLE_NAME.test(name) || name in Object.prototype) {
    throw new EnvRefused(
      `setEnv: ${JSON.stringify(name.slice(0, 64))} is not a variable name (letters, digits and _, not starting with a digit, at most 128, and not a name every object has)`,
    );
  }
  if (value.length > MAX_VARIABLE_CHARS) {
    throw new EnvRefused(`setEnv: the value of ${name} is longer than ${MAX_VARIABLE_CHARS} characters`);
  }
}

/** Stores `name` in the thread and reopens the variables; resolves with the type it was stored as. */
export async function storeThreadVariable(
  host: EnvHost,
  name: string,
  value: string,
  type: VariableType | undefined,
): Promise<VariableType> {
  checkInput(name, value);
  const opened = await host.variables.open();
  const wasSecret = opened.secretNames.has(name);
  if (wasSecret && type === 'text') {
    throw new EnvRefused(`setEnv: ${name} holds a secret, and a secret cannot become text`);
  }
  const known = Object.hasOwn(opened.resolved.values, name) || opened.resolved.declared.has(name);
  // The specification: without a type, a name keeps its type, and a new one is a secret.
  // VAR-3: a value holding one of the thread's secrets is sealed as one, whatever the type says.
  const holdsSecret = host.variables.scrubber.text(value) !== value;
  const secret = (type === undefined ? wasSecret || !known : type === 'secret' || wasSecret) || holdsSecret;
  const info = host.info();
  let stored: Awaited<ReturnType<typeof storeVariables>>;
  try {
    stored = await storeVariables(host.ctx.storage, info.id, { [name]: value }, [], host.env.SECRETS_KEY, [
      ...(secret ? [name] : []),
    ]);
  } catch (error) {
    const hint =
      type === undefined && !known ? " (a new name is a secret unless setEnv is given { type: 'text' })" : '';
    throw new EnvRefused(`setEnv: ${(error as Error).message}${hint}`);
  }
  const previous = opened.resolved.values[name];
  if (wasSecret && previous !== undefined && previous !== value) host.variables.protect([previous]);
  stored.write();
  await host.variables.refresh();
  return secret ? 'secret' : 'text';
}
