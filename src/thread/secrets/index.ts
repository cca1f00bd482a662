/** The secrets room's door: what the rest of the runtime may use of it. */
export { SecretBox } from './secret-box.js';
export { ThreadVariables } from './thread-variables.js';
export type { LoadedVariables, StoredVariables } from './variables.js';
export { SecretsKeyMissing, storeRefusal, storeSecretVariable, storeVariables } from './variables.js';
