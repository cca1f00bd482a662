/**
 * A thread's variable values (VAR-2, VAR-3): stored per thread, secrets sealed with the thread's
 * SecretBox; opened once per object lifetime and turned into the scrubber that keeps them out of
 * everything the runtime emits (EXE-8).
 */
import type { ResolvedVariables } from '../engine/thread-state.js';
import type { VariableDefinition } from '../spec/index.js';
import { SecretBox } from './secret-box.js';

/** Values shorter than this are not scrubbed: replacing every "a" would destroy all text. */
const MIN_SCRUBBED_LENGTH = 4;

export class SecretsKeyMissing extends Error {
  constructor() {
    super('secret variables need the SECRETS_KEY Worker secret, which is not set');
    this.name = 'SecretsKeyMissing';
  }
}

export async function storeVariables(
  sql: SqlStorage,
  threadId: string,
  values: Readonly<Record<string, string>>,
  declared: readonly VariableDefinition[],
  masterKey: string | undefined,
): Promise<() => void> {
  const secretNames = new Set(declared.filter((v) => v.type === 'secret').map((v) => v.name));
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
  // Returned as a thunk so the caller writes these rows in the same transaction as the thread.
  return () => {
    for (const row of rows) sql.exec('INSERT OR REPLACE INTO variables (name, secret, value) VALUES (?, ?, ?)', ...row);
  };
}

export interface LoadedVariables {
  resolved: ResolvedVariables;
  scrub(text: string): string;
}

export async function loadVariables(
  sql: SqlStorage,
  threadId: string,
  declared: readonly VariableDefinition[],
  masterKey: string | undefined,
): Promise<LoadedVariables> {
  const values: Record<string, string> = {};
  const secrets: string[] = [];
  let box: SecretBox | null = null;
  for (const row of sql.exec<{ name: string; secret: number; value: string }>('SELECT * FROM variables')) {
    if (row.secret === 1) {
      if (!masterKey) throw new SecretsKeyMissing();
      box ??= await SecretBox.forThread(masterKey, threadId);
      values[row.name] = await box.open(row.value);
      secrets.push(values[row.name] as string);
    } else {
      values[row.name] = row.value;
    }
  }
  // Each secret is also matched as it appears inside JSON text (quotes and backslashes escaped).
  const scrubbed = secrets
    .filter((secret) => secret.length >= MIN_SCRUBBED_LENGTH)
    .flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)])
    .sort((a, b) => b.length - a.length);
  return {
    resolved: { declared: new Set([...declared.map((v) => v.name), ...Object.keys(values)]), values },
    scrub: (text) => scrubbed.reduce((out, secret) => out.split(secret).join('[secret]'), text),
  };
}
