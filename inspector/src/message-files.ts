/**
 * The files a user sent with a message, shown under its text in the log: each file's name (a link
 * that downloads it through the files route), type and size, and a thumbnail of each image. The
 * files route needs the key in a header, which an <img> cannot send: the page fetches an image's
 * bytes once and shows them from an object URL, released when the thread's screen closes.
 */
import { h } from './dom.js';
import { bytes, givenName } from './format.js';
import { downloadLink, type LogActions } from './tool-call-view.js';
import type { AttachmentRef } from './types.js';

/** Images the thumbnail shows (the types a browser draws; the server accepts these for messages). */
const DRAWN = /^image\/(png|jpeg|gif|webp)$/;

/** Object URLs of a thread's images, each fetched once. */
export class Thumbnails {
  private readonly urls = new Map<string, Promise<string>>();
  /** The screen closed: its URLs are released, and an image still being read is not shown. */
  private closed = false;

  constructor(private readonly fetchBlob: (path: string) => Promise<Blob>) {}

  /**
   * The URL of the image at `path`, its bytes typed as `type` (one of the drawn image types) whatever
   * the answer said: an object URL shares the page's origin, so it must never be one a browser would
   * run as a page or a script.
   */
  url(path: string, type: string): Promise<string> {
    if (!DRAWN.test(type)) return Promise.reject(new TypeError(`${type} is not an image shown here`));
    let url = this.urls.get(path);
    if (!url) {
      url = this.fetchBlob(path).then((blob) => URL.createObjectURL(new Blob([blob], { type })));
      // A failed read is tried again the next time the image is shown.
      url.catch(() => this.urls.delete(path));
      this.urls.set(path, url);
    }
    // A detached <img> still loads its source: one handed a released URL would fail to load.
    return url.then((ready) => (this.closed ? Promise.reject(new Error('the screen closed')) : ready));
  }

  dispose(): void {
    this.closed = true;
    for (const url of this.urls.values()) url.then(URL.revokeObjectURL, () => {});
    this.urls.clear();
  }
}

/** What the list needs: downloads, and the images' object URLs. */
export interface MessageFileActions extends LogActions {
  thumbnails: Thumbnails;
}

export function messageFiles(files: readonly AttachmentRef[], actions: MessageFileActions): HTMLElement {
  return h(
    'ul',
    { class: 'message-files', 'aria-label': 'Attached files' },
    files.map((file) => {
      const dimensions = file.width && file.height ? `, ${file.width}×${file.height}` : '';
      return h(
        'li',
        { class: 'message-file', 'data-path': file.path },
        DRAWN.test(file.mimeType) ? thumbnail(file, actions.thumbnails) : null,
        h(
          'span',
          { class: 'message-file-about' },
          downloadLink(actions, file.path, givenName(file.name)),
          h('span', { class: 'muted small' }, ` ${file.mimeType}, ${bytes(file.size)}${dimensions}`),
        ),
      );
    }),
  );
}

/** The image, small, opening whole in a new tab; its bytes arrive after the entry is shown. */
function thumbnail(file: AttachmentRef, thumbnails: Thumbnails): HTMLElement {
  const image = h('img', { class: 'thumbnail', alt: givenName(file.name), width: 96, height: 96 });
  const link = h(
    'a',
    { class: 'thumbnail-link', target: '_blank', rel: 'noopener', 'aria-label': `Open ${givenName(file.name)}` },
    image,
  );
  thumbnails.url(file.path, file.mimeType).then(
    (url) => {
      image.src = url;
      link.href = url;
    },
    () => {
      image.alt = `${givenName(file.name)} (could not be read)`;
    },
  );
  return link;
}
