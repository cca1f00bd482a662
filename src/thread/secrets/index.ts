/**
 * A thread's variables and secrets at rest (VAR-2, VAR-3): values sealed per thread, opened once per
 * object lifetime, and the scrubber built from them.
 */
export { SecretBox } from './secret-box.js';
export { type EnvHost, EnvRefused, MAX_VARIABLE_CHARS, storeThreadVariable, type VariableType } from './thread-env.js';
export { ThreadVariables } from './thread-variables.js';
export type { LoadedVariables, StoredVariables } from './variables.js';
export { SecretsKeyMissing, storeRefusal, storeSecretVariable, storeVariables } from './variables.js';
