/**
 * A thread's files: folders open on demand, files download through the API. A refresh (after a tool
 * wrote) keeps the folders the user opened open, so what they were about to click stays in place.
 */
import { type Api, describeError } from './api.js';
import { h, replace } from './dom.js';
import { bytes } from './format.js';
import { downloadLink, type LogActions } from './log.js';

export class FilesPanel {
  readonly element: HTMLElement;
  private readonly tree = h('div', { class: 'file-tree' });
  /** The folders the user opened, by path. */
  private readonly opened = new Set<string>();

  constructor(
    private readonly api: Api,
    private readonly threadId: string,
    private readonly actions: LogActions,
  ) {
    this.element = h(
      'section',
      { class: 'card', 'aria-labelledby': 'files-title' },
      h(
        'div',
        { class: 'section-head' },
        h('h2', { id: 'files-title' }, 'Files'),
        h('button', { type: 'button', class: 'small', onclick: () => void this.refresh() }, 'Refresh files'),
      ),
      this.tree,
    );
  }

  async refresh(): Promise<void> {
    replace(this.tree, await this.folder('/'));
  }

  private async folder(path: string): Promise<HTMLElement> {
    try {
      const { entries } = await this.api.client.files.list(this.threadId, path);
      if (entries.length === 0) return h('p', { class: 'muted' }, 'No files.');
      const sorted = [...entries].sort((a, b) =>
        a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'directory' ? -1 : 1,
      );
      return h(
        'ul',
        { class: 'files', 'aria-label': `Files in ${path}` },
        await Promise.all(
          sorted.map((entry) =>
            entry.kind === 'directory' ? this.directory(entry.path, entry.name) : this.file(entry),
          ),
        ),
      );
    } catch (error) {
      return h('p', { class: 'form-error' }, `Could not list ${path}: ${describeError(error)}`);
    }
  }

  private async directory(path: string, name: string): Promise<HTMLLIElement> {
    const content = h('div', {});
    const open = this.opened.has(path);
    // An open folder is listed before the tree is swapped in: it never shows closed or empty.
    if (open) replace(content, await this.folder(path));
    const details = h('details', { open }, h('summary', {}, `${name}/`), content);
    details.addEventListener('toggle', async () => {
      if (details.open) this.opened.add(path);
      else this.opened.delete(path);
      if (details.open && content.childElementCount === 0) replace(content, await this.folder(path));
    });
    return h('li', { class: 'folder' }, details);
  }

  private file(entry: { path: string; name: string; size?: number }): HTMLLIElement {
    return h(
      'li',
      { class: 'file' },
      downloadLink(this.actions, entry.path),
      entry.size === undefined ? null : h('span', { class: 'muted' }, ` ${bytes(entry.size)}`),
    );
  }
}
