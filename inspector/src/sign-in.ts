/** The sign-in screen: an API key, checked against the server, kept in this tab's sessionStorage. */
import { Api, describeError, isUnauthorized } from './api.js';
import { field, h } from './dom.js';

const STORAGE_KEY = 'standard-agents.inspector.key';

export function storedKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function forgetKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
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
    field('API key', input, 'One of the keys in the Worker’s API_KEYS. Kept for this tab only.'),
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
      alert.textContent = isUnauthorized(error)
        ? 'This key was refused.'
        : `Could not sign in: ${describeError(error)}`;
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
