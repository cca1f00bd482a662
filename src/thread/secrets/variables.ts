/**
 * A thread's variable values (VAR-2, VAR-3): stored per thread, secrets sealed with the thread's
 * SecretBox, and opened into the values tools read plus the scrubber that keeps the secrets out of
 * everything the runtime stores or emits (EXE-8). Every stored secret passes through
 * `storeVariables`, which refuses one shorter than MIN_SECRET_LENGTH.
 */

import type { ResolvedVariables } from '../../engine/execute/index.js';
import { createScrubber, type SecretScrubber } from '../../engine/secrets/index.js';
import type { VariableDefinition } from '../../spec/index.js';
import { resolveVariableValues, secretValueProblem } from '../../spec/internal.js';
import type { ApiError } from '../bindings/index.js';
import { type VariableRow, VariableRows } from '../storage/index.js';
import { SecretBox } from './secret-box.js';

export class SecretsKeyMissing extends Error {
  constructor() {
    super('secret variables need the SECRETS_KEY Worker secret, which is not set');
    this.name = 'SecretsKeyMissing';
  }
}

/** A secret value too short to be scrubbed safely: refused, never stored (VAR-3, EXE-8). */
export class SecretTooShort extends Error {
  readonly code = 'secret_too_short';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
    this.name = 'SecretTooShort';
  }
}

/** The answer to a refused store (VAR-3), or null when `error` is not a refusal. */
export function storeRefusal(error: unknown): ApiError | null {
  if (error instanceof SecretTooShort) return { status: 400, code: error.code, message: error.message };
  if (error instanceof SecretsKeyMissing) return { status: 500, code: 'secrets_key_missing', message: error.message };
  return null;
}

export interface LoadedVariables {
  resolved: ResolvedVariables;
  /** Names whose values are secrets. */
  secretNames: ReadonlySet<string>;
  scrubber: SecretScrubber;
}

/** The values a thread sees (VAR-2 defaults applied) and the scrubber of its secret ones. */
function openedVariables(
  declared: readonly VariableDefinition[],
  stored: Readonly<Record<string, string>>,
  secretNames: ReadonlySet<string>,
): LoadedVariables {
  const values = resolveVariableValues(declared, stored);
  const secrets = [...secretNames].flatMap((name) => (values[name] === undefined ? [] : [values[name]]));
  return {
    resolved: { declared: new Set([...declared.map((v) => v.name), ...Object.keys(values)]), values, secretNames },
    secretNames,
    scrubber: createScrubber(secrets),
  };
}

export interface StoredVariables {
  /** Writes every row; the caller runs it in the same transaction as the rest of its writes. */
  write(): void;
  /** The variables as `loadVariables` will open them, built from the plaintext at hand. */
  opened: LoadedVariables;
}

/**
 * Seals the secret values and returns the thunk that writes every row, with the variables opened
 * from the plaintext (so the scrubber is in place before anything is appended). Secrets are the
 * names declared secret, plus `alsoSecret` (values a parent thread held as secrets stay secret in
 * its child). A secret shorter than MIN_SECRET_LENGTH is refused with SecretTooShort, before
 * anything is sealed or written.
 */
export async function storeVariables(
  storage: DurableObjectStorage,
  threadId: string,
  values: Readonly<Record<string, string>>,
  declared: readonly VariableDefinition[],
  masterKey: string | undefined,
  alsoSecret: readonly string[] = [],
): Promise<StoredVariables> {
  const declaredSecrets = declared.filter((v) => v.type === 'secret').map((v) => v.name);
  const secretNames = new Set([...declaredSecrets, ...alsoSecret.filter((name) => name in values)]);
  for (const [name, value] of Object.entries(values)) {
    const problem = secretNames.has(name) ? secretValueProblem(name, value) : null;
    if (problem) throw new SecretTooShort(name, problem);
  }
  const rows: VariableRow[] = [];
  let box: SecretBox | null = null;
  for (const [name, value] of Object.entries(values)) {
    if (secretNames.has(name)) {
      if (!masterKey) throw new SecretsKeyMissing();
      box ??= await SecretBox.forThread(masterKey, threadId);
      rows.push({ name, secret: true, value: await box.seal(value) });
    } else {
      rows.push({ name, secret: false, value });
    }
  }
  return {
    write: () => {
      const table = new VariableRows(storage);
      for (const row of rows) table.put(row);
    },
    opened: openedVariables(declared, values, secretNames),
  };
}

/**
 * Seals one value as a secret (VAR-5: a credential a human entered for `store_secret`) and returns
 * the thunk that writes it, replacing an older value of the same name.
 */
export async function storeSecretVariable(
  storage: DurableObjectStorage,
  threadId: string,
  name: string,
  value: string,
  masterKey: string | undefined,
): Promise<() => void> {
  return (await storeVariables(storage, threadId, { [name]: value }, [], masterKey, [name])).write;
}

export async function loadVariables(
  storage: DurableObjectStorage,
  threadId: string,
  declared: readonly VariableDefinition[],
  masterKey: string | undefined,
): Promise<LoadedVariables> {
  const stored: Record<string, string> = {};
  const secretNames = new Set(declared.filter((v) => v.type === 'secret').map((v) => v.name));
  let box: SecretBox | null = null;
  for (const row of new VariableRows(storage).all()) {
    if (row.secret) {
      if (!masterKey) throw new SecretsKeyMissing();
      box ??= await SecretBox.forThread(masterKey, threadId);
      stored[row.name] = await box.open(row.value);
      secretNames.add(row.name);
    } else {
      stored[row.name] = row.value;
    }
  }
  return openedVariables(declared, stored, secretNames);
}
