/**
 * The HTML vocabulary of html-to-text.ts: which elements are dropped, which are blocks, which mark
 * inline text, and the small helpers the renderer uses on attributes and code.
 */

/** Elements whose content is never page text. */
export const DROPPED = new Set([
  'head',
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'canvas',
  'iframe',
  'object',
  'embed',
  'audio',
  'video',
  'map',
  'select',
  'button',
  'input',
  'textarea',
  'title',
  'meta',
  'link',
  'base',
]);
/** Blocks separated from their neighbours by a blank line. */
export const PARAGRAPH_BLOCKS = new Set([
  'p',
  'address',
  'article',
  'aside',
  'dl',
  'details',
  'fieldset',
  'figure',
  'footer',
  'form',
  'header',
  'hgroup',
  'main',
  'nav',
  'section',
]);
/** Blocks that only start a new line. */
export const LINE_BLOCKS = new Set([
  'body',
  'html',
  'div',
  'center',
  'dt',
  'figcaption',
  'legend',
  'summary',
  'dialog',
]);
export const INLINE_MARKERS = new Map([
  ['strong', '**'],
  ['b', '**'],
  ['em', '_'],
  ['i', '_'],
  ['del', '~~'],
  ['s', '~~'],
  ['strike', '~~'],
]);
export const CODE_INLINE = new Set(['code', 'kbd', 'samp', 'tt']);

export function parseUrl(href: string | undefined, base?: URL): URL | undefined {
  if (href === undefined) return undefined;
  try {
    return new URL(href, base);
  } catch {
    return undefined;
  }
}

export function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** The language of `class="language-ts"` (or `lang-ts`). */
export function codeLanguage(classes: string | undefined): string {
  return /(?:^|\s)lang(?:uage)?-([\w+#-]+)/.exec(classes ?? '')?.[1] ?? '';
}
