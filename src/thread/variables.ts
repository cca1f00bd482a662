/**
 * A thread's variable values (VAR-2, VAR-3): stored per thread, secrets sealed with the thread's
 * SecretBox; opened once per object lifetime and turned into the scrubber that keeps them out of
 * everything the runtime emits (EXE-8).
 */
import type { ResolvedVariables } from '../engine/thread-state.js';
import type { VariableDefinition } from '../spec/index.js';
import { resolveVariableValues } from '../spec/variables.js';
import { SecretBox } from './secret-box.js';

/** Values shorter than this are not scrubbed: replacing every "a" would destroy all text. */
const MIN_SCRUBBED_LENGTH = 4;

export class SecretsKeyMissing extends Error {
  constructor() {
    super('secret variables need the SECRETS_KEY Worker secret, which is not set');
    this.name = 'SecretsKeyMissing';
  }
}

/**
 * Seals the secret values and returns a thunk that writes every row, so the caller can write them
 * in the same transaction as the thread. Secrets are the names declared secret, plus `alsoSecret`
 * (values a parent thread held as secrets stay secret in its child).
 */
export async function storeVariables(
  sql: SqlStorage,
  threadId: string,
  values: Readonly<Record<string, string>>,
  declared: readonly VariableDefinition[],
  masterKey: string | undefined,
  alsoSecret: readonly string[] = [],
): Promise<() => void> {
  const secretNames = new Set([...declared.filter((v) => v.type === 'secret').map((v) => v.name), ...alsoSecret]);
  const rows: [string, number, string][] = [];
  let box: SecretBox | null = null;
  for (const [name, value] of Object.entries(values)) {
    if (secretNames.has(name)) {
      if (!masterKey) throw new SecretsKeyMissing();
      box ??= await SecretBox.forThread(masterKey, threadId);
      rows.push([name, 1, await box.seal(value)]);
    } else {
      rows.push([name, 0, value]);
    }
  }
  return () => {
    for (const row of rows) sql.exec('INSERT OR REPLACE INTO variables (name, secret, value) VALUES (?, ?, ?)', ...row);
  };
}

/**
 * Seals one value as a secret (VAR-5: a credential a human entered for `store_secret`) and returns
 * the thunk that writes it, replacing an older value of the same name.
 */
export function storeSecretVariable(
  sql: SqlStorage,
  threadId: string,
  name: string,
  value: string,
  masterKey: string | undefined,
): Promise<() => void> {
  return storeVariables(sql, threadId, { [name]: value }, [], masterKey, [name]);
}

export interface LoadedVariables {
  resolved: ResolvedVariables;
  /** Names whose values are secrets. */
  secretNames: ReadonlySet<string>;
  scrub(text: string): string;
}

export async function loadVariables(
  sql: SqlStorage,
  threadId: string,
  declared: readonly VariableDefinition[],
  masterKey: string | undefined,
): Promise<LoadedVariables> {
  const stored: Record<string, string> = {};
  const secretNames = new Set(declared.filter((v) => v.type === 'secret').map((v) => v.name));
  let box: SecretBox | null = null;
  for (const row of sql.exec<{ name: string; secret: number; value: string }>('SELECT * FROM variables')) {
    if (row.secret === 1) {
      if (!masterKey) throw new SecretsKeyMissing();
      box ??= await SecretBox.forThread(masterKey, threadId);
      stored[row.name] = await box.open(row.value);
      secretNames.add(row.name);
    } else {
      stored[row.name] = row.value;
    }
  }
  const values = resolveVariableValues(declared, stored);
  // Each secret is also matched as it appears inside JSON text (quotes and backslashes escaped).
  const scrubbed = [...secretNames]
    .map((name) => values[name])
    .filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SCRUBBED_LENGTH)
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)])
    .sort((a, b) => b.length - a.length);
  return {
    resolved: { declared: new Set([...declared.map((v) => v.name), ...Object.keys(values)]), values },
    secretNames,
    scrub: (text) => scrubbed.reduce((out, secret) => out.split(secret).join('[secret]'), text),
  };
}
