/**
 * The credential routine's hint (CRED-1, seed 002 "Credential auto-heal"): when a tool declaring a
 * `secret` variable fails to authenticate, its error ends with a line naming the variable(s) to
 * refresh, so a model following the routine its system prompt states (request/system-prompt.ts)
 * knows what to ask `store_secret` for without guessing. A failure is an authentication failure
 * when `state.fetch` got a 401 or 403 during the call, or when the error text says so.
 */
import type { AnyToolDefinition } from '../../spec/index.js';
import type { ThreadStore } from '../ports/index.js';

/** The built-in that asks a human for a credential (tools/session/store-secret.ts). */
export const STORE_SECRET = 'store_secret';

/** Runtime-internal store key: the 401/403 a call's `state.fetch` received, until its result is kept. */
const authStatusKey = (toolCallId: string) => `runtime:auth_status:${toolCallId}`;

/** Error text that says a credential was missing, refused or expired. */
const AUTH_FAILURE_TEXT =
  /\b(?:401|403)\b|unauthori[sz]ed|forbidden|authentication (?:failed|required)|(?:invalid|wrong|bad|missing|revoked)[\s_-]*(?:api[\s_-]*)?(?:key|token|credential|secret)s?|expired[\s_-]*(?:api[\s_-]*)?(?:key|token|credential)s?|(?:key|token|credential)s?\s+(?:has\s+|have\s+|is\s+|are\s+)?(?:expired|revoked|invalid)/i;

/** Called by `state.fetch` for each response: remembers an authentication refusal for the call. */
export function noteAuthStatus(store: ThreadStore, toolCallId: string, status: number): void {
  if (status === 401 || status === 403) store.setValue(authStatusKey(toolCallId), status);
}

/** The 401/403 the call's fetches received, forgotten once read. */
function takeAuthStatus(store: ThreadStore, toolCallId: string): number | undefined {
  const key = authStatusKey(toolCallId);
  const status = store.getValue(key) as number | undefined;
  if (status !== undefined) store.setValue(key, undefined);
  return status;
}

/** The variables to refresh: the tool's secret ones that the error names, else all of them. */
function variablesToRefresh(secrets: readonly string[], errorText: string): string[] {
  const named = secrets.filter((name) => errorText.includes(name));
  return named.length > 0 ? named : [...secrets];
}

export interface HintContext {
  store: ThreadStore;
  toolCallId: string;
  /** Whether the turn offers store_secret: the hint is given only where it can be followed. */
  offersStoreSecret: boolean;
}

/** The line to add to a failed call's error, or '' when the failure is not about a credential. */
export function credentialHint(definition: AnyToolDefinition | undefined, errorText: string, at: HintContext): string {
  const status = takeAuthStatus(at.store, at.toolCallId);
  const secrets = (definition?.variables ?? []).filter((v) => v.type === 'secret').map((v) => v.name);
  if (secrets.length === 0 || !at.offersStoreSecret) return '';
  if (status === undefined && !AUTH_FAILURE_TEXT.test(errorText)) return '';
  const names = variablesToRefresh(secrets, errorText);
  const cause = status !== undefined ? `the service answered HTTP ${status}` : 'the error reports a refused credential';
  return `Credential hint: ${cause}. Variables to refresh: ${names.join(', ')}. Call ${STORE_SECRET} for each, then retry this call once.`;
}
