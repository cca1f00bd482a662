/**
 * What a thread waits for, each with the form that answers it: a question (its options), an
 * approval (approve, approve always, reject with a reason), a client or human-in-the-loop tool's
 * output (JSON), a secret's value, an MCP server's authorization (started in a new window of this
 * browser, which alone can complete it); a subagent is only shown.
 */
import { type Api, describeError } from './api.js';
import { append, field, h, replace, uid } from './dom.js';
import { json } from './format.js';
import { threadLink } from './thread-list.js';

interface QuestionOption {
  label: string;
  description?: string;
}

interface Question {
  question: string;
  header?: string;
  options?: QuestionOption[];
  multi_select?: boolean;
}

/** A call that waits: from the thread's `waiting_for`, or from a `waiting` frame. */
export interface Wait {
  tool_call_id: string;
  name: string;
  kind: string;
  payload: unknown;
}

const TITLES: Record<string, string> = {
  question: 'Question',
  approval: 'Approval',
  client_tool: 'Client tool',
  hitl: 'Human input',
  secret: 'Secret',
  mcp_auth: 'Authorization',
  subagent: 'Subagent',
};

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

export class WaitsPanel {
  readonly element: HTMLElement;
  private readonly list = h('div', { class: 'wait-list' });
  private readonly waits = new Map<string, HTMLElement>();

  /** `answered`: called once an answer is accepted (the inbox drops the wait's row then). */
  constructor(
    private readonly api: Api,
    private readonly threadId: string,
    private readonly answered?: () => void,
  ) {
    this.element = h(
      'section',
      { class: 'card waits', 'aria-labelledby': 'waits-title', hidden: true },
      h('h2', { id: 'waits-title' }, 'Waiting for an answer'),
      this.list,
    );
  }

  /** Shows exactly these waits (the thread's `waiting_for`), keeping forms already shown. */
  set(waits: Wait[]): void {
    const open = new Set(waits.map((wait) => wait.tool_call_id));
    for (const id of [...this.waits.keys()]) if (!open.has(id)) this.remove(id);
    for (const wait of waits) this.add(wait);
  }

  add(wait: Wait): void {
    if (this.waits.has(wait.tool_call_id)) return;
    const view = this.render(wait);
    this.waits.set(wait.tool_call_id, view);
    this.list.append(view);
    this.element.hidden = false;
  }

  remove(toolCallId: string): void {
    this.waits.get(toolCallId)?.remove();
    this.waits.delete(toolCallId);
    this.element.hidden = this.waits.size === 0;
  }

  /** The wait with the form that answers it, as an article; the inbox shows these on their own. */
  render(wait: Wait): HTMLElement {
    const titleId = uid('wait');
    const body = (() => {
      switch (wait.kind) {
        case 'question':
          return this.questionForm(wait);
        case 'approval':
          return this.approvalForm(wait);
        case 'client_tool':
        case 'hitl':
          return this.outputForm(wait);
        case 'secret':
          return this.secretForm(wait);
        case 'mcp_auth':
          return this.authorization(wait);
        case 'subagent':
          return this.subagent(wait);
        default:
          return h('pre', { class: 'json' }, json(wait.payload));
      }
    })();
    return h(
      'article',
      { class: `wait wait-${wait.kind}`, 'aria-labelledby': titleId, 'data-call-id': wait.tool_call_id },
      h(
        'h3',
        { id: titleId },
        TITLES[wait.kind] ?? wait.kind,
        wait.name === wait.kind ? null : [' for ', h('code', {}, wait.name)],
      ),
      body,
    );
  }

  /** A form that sends one answer; errors show inside it, success disables it until the wait closes. */
  private answerForm(label: string, send: (form: HTMLFormElement, submitter: HTMLElement | null) => Promise<unknown>) {
    const alert = h('p', { role: 'alert', class: 'form-error' });
    const form = h('form', { 'aria-label': label });
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      alert.textContent = '';
      const buttons = [...form.querySelectorAll('button')];
      for (const button of buttons) button.disabled = true;
      try {
        await send(form, (event as SubmitEvent).submitter);
        alert.textContent = '';
        form.append(h('p', { role: 'status', class: 'muted' }, 'Answer sent.'));
        this.answered?.();
      } catch (error) {
        alert.textContent = describeError(error);
        for (const button of buttons) button.disabled = false;
      }
    });
    return { form, alert };
  }

  private questionForm(wait: Wait): HTMLElement {
    const questions = (record(wait.payload).questions as Question[] | undefined) ?? [];
    const readers: (() => string[])[] = [];
    const { form, alert } = this.answerForm('Answer the question', () =>
      this.api.client.answers.question(this.threadId, {
        tool_call_id: wait.tool_call_id,
        answers: readers.map((read) => read()),
      }),
    );
    questions.forEach((question, index) => {
      const name = uid(`q${index}`);
      const options = question.options ?? [];
      const legend = h(
        'legend',
        {},
        question.header ? [h('span', { class: 'q-header' }, question.header), ' '] : null,
        question.question,
      );
      const fieldset = h('fieldset', { class: 'question' }, legend);
      const other = h('input', { type: 'text', name: `${name}-other` });
      if (options.length === 0) {
        other.required = true;
        fieldset.append(field('Your answer', other));
        readers.push(() => (other.value.trim() ? [other.value.trim()] : []));
      } else {
        const inputs = options.map((option) => {
          const input = h('input', { type: question.multi_select ? 'checkbox' : 'radio', name, value: option.label });
          const description = option.description
            ? h('small', { class: 'hint', id: uid('option') }, option.description)
            : null;
          if (description) input.setAttribute('aria-describedby', description.id);
          fieldset.append(h('div', { class: 'option' }, h('label', {}, input, ` ${option.label}`), description));
          return input;
        });
        fieldset.append(field('Another answer', other, 'Optional: your own words'));
        readers.push(() => {
          const chosen = inputs.filter((input) => input.checked).map((input) => input.value);
          const own = other.value.trim();
          return own ? [...chosen, own] : chosen;
        });
        // One choice is needed unless the answer is written in words.
        const syncRequired = () => {
          for (const input of inputs) input.required = !question.multi_select && !other.value.trim();
        };
        syncRequired();
        other.addEventListener('input', syncRequired);
      }
      form.append(fieldset);
    });
    form.append(
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Send answers')),
      alert,
    );
    return form;
  }

  private approvalForm(wait: Wait): HTMLElement {
    const payload = record(wait.payload);
    const reason = h('input', { type: 'text', name: 'reason' });
    const { form, alert } = this.answerForm('Approve or reject the call', (_form, submitter) => {
      const choice = submitter?.getAttribute('value') ?? 'approve';
      return this.api.client.answers.approval(this.threadId, {
        tool_call_id: wait.tool_call_id,
        approved: choice !== 'reject',
        ...(choice === 'always' ? { always: true } : {}),
        ...(choice === 'reject' && reason.value.trim() ? { reason: reason.value.trim() } : {}),
      });
    });
    append(
      form,
      typeof payload.reason === 'string' ? h('p', {}, payload.reason) : null,
      h(
        'details',
        { open: true },
        h('summary', {}, 'Arguments'),
        h('pre', { class: 'json' }, json(payload.arguments ?? {})),
      ),
      field('Reason', reason, 'Sent with a rejection; the model is told why.'),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'primary', value: 'approve' }, 'Approve'),
        h('button', { type: 'submit', value: 'always' }, 'Approve always'),
        h('button', { type: 'submit', class: 'danger', value: 'reject' }, 'Reject'),
      ),
      alert,
    );
    return form;
  }

  private outputForm(wait: Wait): HTMLElement {
    const output = h('textarea', { name: 'output', rows: 4, class: 'mono', spellcheck: 'false' }, '{}');
    const { form, alert } = this.answerForm('Send the tool output', () => {
      let value: unknown;
      try {
        value = JSON.parse(output.value);
      } catch {
        throw new Error('The output is not valid JSON.');
      }
      return this.api.client.answers.toolResult(this.threadId, { tool_call_id: wait.tool_call_id, output: value });
    });
    form.append(
      h('details', { open: true }, h('summary', {}, 'Call'), h('pre', { class: 'json' }, json(wait.payload))),
      field('Output (JSON)', output),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Send output')),
      alert,
    );
    return form;
  }

  private secretForm(wait: Wait): HTMLElement {
    const payload = record(wait.payload);
    const name = typeof payload.name === 'string' ? payload.name : 'secret';
    const value = h('input', { type: 'password', name: 'value', autocomplete: 'off', required: true, minlength: 8 });
    const { form, alert } = this.answerForm(`Store the value of ${name}`, () =>
      this.api.client.answers.secret(this.threadId, { tool_call_id: wait.tool_call_id, value: value.value }),
    );
    append(
      form,
      typeof payload.reason === 'string' ? h('p', {}, payload.reason) : null,
      field(`Value of ${name}`, value, 'Sealed in the thread; no model ever sees it. At least 8 characters.'),
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Store secret')),
      alert,
    );
    return form;
  }

  /**
   * The key lives in this page, not in a cookie, so the page asks for a one-time start link and
   * opens it in a new window of this browser: the link sets the cookie that lets only this browser
   * complete the authorization. The window is opened at the click, before the request, so no popup
   * blocker stops it; if one does, the link is shown to follow by hand.
   */
  private authorization(wait: Wait): HTMLElement {
    const payload = record(wait.payload);
    const server = typeof payload.server === 'string' ? payload.server : null;
    if (!server) return h('p', {}, 'Waiting for an MCP server to be authorized.');
    const where = typeof payload.authorization_server === 'string' ? payload.authorization_server : null;
    const alert = h('p', { role: 'alert', class: 'form-error' });
    const status = h('p', { role: 'status', class: 'muted' });
    const button = h('button', { type: 'button', class: 'primary' }, `Authorize ${server}`);
    button.addEventListener('click', async () => {
      const popup = window.open('', '_blank');
      button.disabled = true;
      alert.textContent = '';
      try {
        const link = await this.api.client.answers.mcpAuthorization(this.threadId, { server });
        if (popup) {
          popup.opener = null;
          popup.location.href = link.start_url;
          status.textContent = 'Opened in a new window. Closed it too soon? Authorize again for a new link.';
        } else {
          replace(status, h('a', { href: link.start_url, target: '_blank', rel: 'noopener' }, 'Continue to authorize'));
        }
      } catch (error) {
        popup?.close();
        alert.textContent = describeError(error);
      } finally {
        button.disabled = false;
      }
    });
    return h(
      'div',
      {},
      h(
        'p',
        {},
        `The MCP server ${server} asks you to authorize this thread`,
        where ? [' at ', h('code', {}, where)] : null,
        '.',
      ),
      h('div', { class: 'actions' }, button),
      status,
      alert,
    );
  }

  private subagent(wait: Wait): HTMLElement {
    const payload = record(wait.payload);
    const child = typeof payload.child_id === 'string' ? payload.child_id : null;
    const what = typeof payload.description === 'string' ? payload.description : 'a subagent';
    const body = h('p', {}, `Waiting for ${what}`);
    if (child) replace(body, `Waiting for ${what} in `, threadLink(child, `child thread ${child.slice(0, 8)}`), '.');
    return body;
  }
}
