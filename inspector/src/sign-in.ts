/**
 * The sign-in screen: an API key or an identity provider's token (both are bearer credentials),
 * checked against the server, kept in this tab's sessionStorage.
 */
import { Api, describeError, isUnauthorized } from './api.js';
import { field, h } from './dom.js';

const STORAGE_KEY = 'standard-agents.inspector.key';

export function storedKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function forgetKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

/** Why the server refused the credential, in words (the error codes of docs/identity.md). */
function refusal(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'key_revoked') return 'This key was revoked.';
  if (code === 'token_expired') return 'This key or token has expired.';
  if (code === 'invalid_token')
    return 'This token was refused: its signature, issuer or audience is not the expected one.';
  return 'This key was refused.';
}

/** The sign-in form; `onSignedIn` gets a client for a key the server accepted. */
export function signInScreen(prefill: string, onSignedIn: (api: Api) => void): HTMLElement {
  const input = h('input', {
    type: 'password',
    name: 'key',
    autocomplete: 'off',
    required: true,
    spellcheck: 'false',
    value: prefill,
  });
  const alert = h('p', { role: 'alert', class: 'form-error' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Sign in');

  const form = h(
    'form',
    { 'aria-labelledby': 'sign-in-title' },
    field(
      'API key or token',
      input,
      'A key from API_KEYS or issued by an admin, or a token from your identity provider, pasted whole. Kept for this tab only.',
    ),
    h('div', { class: 'actions' }, submit),
    alert,
  );
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const key = input.value.trim();
    if (!key) return;
    submit.disabled = true;
    alert.textContent = '';
    const api = new Api(key);
    try {
      await api.client.agents.list();
      sessionStorage.setItem(STORAGE_KEY, key);
      onSignedIn(api);
    } catch (error) {
      alert.textContent = isUnauthorized(error) ? refusal(error) : `Could not sign in: ${describeError(error)}`;
      submit.disabled = false;
    }
  });

  return h(
    'section',
    { class: 'card sign-in' },
    h('h1', { id: 'sign-in-title' }, 'Sign in'),
    h('p', {}, 'Inspect the threads of one key: their live logs, tool calls, waits, files and usage.'),
    form,
  );
}
