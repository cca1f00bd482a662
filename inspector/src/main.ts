/** The inspector page's entry: a key kept in this tab signs in at once; `?key=` prefills the form. */
import { Api } from './api.js';
import { App } from './app.js';
import { storedKey } from './sign-in.js';

const root = document.getElementById('app');
if (root) {
  const key = storedKey();
  const prefill = new URLSearchParams(location.search).get('key') ?? '';
  new App(root, key ? new Api(key) : null, prefill);
}
