/**
 * The page's shell: a top bar and one screen at a time, chosen by the location's hash
 * (`#/` the threads, `#/threads/<id>` one thread, with `?at=<message id>` scrolled to a message,
 * `#/inbox` the waits of every thread, `#/webhooks` the webhook endpoints and their deliveries,
 * `#/schedules` the schedules that start threads, `#/usage` what models cost by who spent it).
 * Without a key it shows the sign-in screen.
 */
import type { Api } from './api.js';
import { h, replace } from './dom.js';
import { inboxScreen } from './inbox-page.js';
import { schedulesScreen } from './schedules-page.js';
import { forgetKey, signInScreen } from './sign-in.js';
import { threadListScreen } from './thread-list.js';
import { type Screen, threadScreen } from './thread-view.js';
import { usageScreen } from './usage-page.js';
import { webhooksScreen } from './webhooks-page.js';

export class App {
  private readonly main = h('main', { id: 'main' });
  private readonly account = h('div', { class: 'account' });
  private current: Screen | null = null;

  constructor(
    root: HTMLElement,
    private api: Api | null,
    private readonly prefill: string,
  ) {
    replace(
      root,
      h(
        'header',
        { class: 'topbar' },
        h('a', { href: '#/', class: 'brand' }, h('span', { 'aria-hidden': 'true' }, '◆ '), 'Standard Agents inspector'),
        this.account,
      ),
      this.main,
    );
    window.addEventListener('hashchange', () => this.route());
    this.route();
  }

  navigate(hash: string): void {
    if (location.hash === hash) this.route();
    else location.hash = hash;
  }

  private route(): void {
    this.current?.dispose();
    this.current = null;
    const api = this.api;
    if (!api) {
      replace(this.account);
      this.show(
        signInScreen(this.prefill, (signedIn) => {
          this.api = signedIn;
          // The key leaves the address bar once it is kept in the tab.
          if (location.search.includes('key=')) history.replaceState(null, '', location.pathname + location.hash);
          this.route();
        }),
      );
      return;
    }
    replace(
      this.account,
      h(
        'nav',
        { 'aria-label': 'Main' },
        h('a', { href: '#/' }, 'Threads'),
        h('a', { href: '#/inbox' }, 'Inbox'),
        h('a', { href: '#/webhooks' }, 'Webhooks'),
        h('a', { href: '#/schedules' }, 'Schedules'),
        h('a', { href: '#/usage' }, 'Usage'),
      ),
      h('button', { type: 'button', class: 'small', onclick: () => this.signOut() }, 'Sign out'),
    );
    if (/^#\/usage\/?$/.test(location.hash)) {
      this.current = usageScreen(api);
      this.show(this.current.element);
      return;
    }
    if (/^#\/schedules\/?$/.test(location.hash)) {
      this.current = schedulesScreen(api);
      this.show(this.current.element);
      return;
    }
    if (/^#\/webhooks\/?$/.test(location.hash)) {
      this.current = webhooksScreen(api);
      this.show(this.current.element);
      return;
    }
    if (/^#\/inbox\/?$/.test(location.hash)) {
      this.current = inboxScreen(api);
      this.show(this.current.element);
      return;
    }
    const match = /^#\/threads\/([^/?#]+)(?:\?at=([^&#]+))?/.exec(location.hash);
    if (match?.[1]) {
      this.current = threadScreen(api, decodeURIComponent(match[1]), match[2] ? decodeURIComponent(match[2]) : null);
      this.show(this.current.element);
      return;
    }
    this.show(threadListScreen(api, (hash) => this.navigate(hash)));
  }

  private show(screen: HTMLElement): void {
    replace(this.main, screen);
    const heading = screen.querySelector('h1');
    if (heading) document.title = `${heading.textContent} · Standard Agents inspector`;
    window.scrollTo(0, 0);
  }

  private signOut(): void {
    forgetKey();
    this.api = null;
    this.route();
  }
}
