/**
 * The files a message will carry, chosen in the composer three ways: picked (a hidden file input
 * behind the Attach button), pasted (an image on the clipboard, pasted in the message box) or
 * dropped on the composer. Each is shown as a chip with its name, size and a Remove button. The
 * server checks every limit (size, count, type): the page only gathers what the user chose, and
 * keeps it when a post is refused so nothing has to be chosen again.
 */
import { h, replace } from './dom.js';
import { bytes } from './format.js';

export class AttachedFiles {
  readonly button = h('button', { type: 'button', class: 'small' }, 'Attach files');
  readonly input = h('input', { type: 'file', multiple: true, hidden: true, 'aria-label': 'Attach files' });
  readonly chips = h('ul', { class: 'chips', 'aria-label': 'Files to send', hidden: true });
  private chosen: File[] = [];

  constructor() {
    this.button.addEventListener('click', () => this.input.click());
    this.input.addEventListener('change', () => {
      this.add(this.input.files ?? []);
      // The same file can be picked again after it was removed.
      this.input.value = '';
    });
  }

  get files(): readonly File[] {
    return this.chosen;
  }

  add(files: Iterable<File> | ArrayLike<File>): void {
    this.chosen.push(...Array.from(files));
    this.render();
  }

  clear(): void {
    this.chosen = [];
    this.render();
  }

  /** Takes files dropped on `target`, showing where they will land while they are dragged over it. */
  acceptDrops(target: HTMLElement): void {
    const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    target.addEventListener('dragover', (event) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      target.classList.add('drop-target');
    });
    target.addEventListener('dragleave', (event) => {
      if (!target.contains(event.relatedTarget as Node | null)) target.classList.remove('drop-target');
    });
    target.addEventListener('drop', (event) => {
      target.classList.remove('drop-target');
      const files = event.dataTransfer?.files;
      if (!files?.length) return;
      event.preventDefault();
      this.add(files);
    });
  }

  /** Takes the files (an image, a screenshot) on the clipboard when pasting in `box`; text pastes as usual. */
  acceptPastes(box: HTMLElement): void {
    box.addEventListener('paste', (event) => {
      const items = Array.from(event.clipboardData?.items ?? []).filter((item) => item.kind === 'file');
      const files = items.map((item) => item.getAsFile()).filter((file): file is File => file !== null);
      if (files.length === 0) return;
      event.preventDefault();
      this.add(files.map(named));
    });
  }

  private remove(index: number): void {
    this.chosen.splice(index, 1);
    this.render();
    this.button.focus();
  }

  private render(): void {
    this.chips.hidden = this.chosen.length === 0;
    replace(
      this.chips,
      this.chosen.map((file, index) =>
        h(
          'li',
          { class: 'chip' },
          h('span', { class: 'chip-name', title: file.name }, file.name),
          h('span', { class: 'muted' }, bytes(file.size)),
          h(
            'button',
            {
              type: 'button',
              class: 'chip-remove',
              'aria-label': `Remove ${file.name}`,
              onclick: () => this.remove(index),
            },
            '×',
          ),
        ),
      ),
    );
  }
}

/** A pasted file keeps its name unless it has none; then it is named for its type. */
function named(file: File): File {
  if (file.name) return file;
  const extension = file.type.split('/')[1]?.replace(/[^a-z0-9]/gi, '') || 'bin';
  return new File([file], `pasted.${extension}`, { type: file.type });
}
