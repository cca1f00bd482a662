/**
 * A small, forgiving, streaming HTML parser for `web_fetch` (LOCK-1, LOCK-3): reads real-world markup
 * and reports balanced open / text / close events, without building a tree, so a page of several
 * megabytes converts in little memory. Pure JavaScript: runs the same on workerd and in Node. It knows
 * void elements, raw-text elements (script, style, ...) and the common implied end tags (p, li, dt/dd,
 * table parts, option); everything else closes where the markup says, or at the end of the input.
 */

/** Receives the document as balanced events: every `open` is matched by one `close`. */
export interface HtmlSink {
  open(name: string, attrs: Readonly<Record<string, string>>): void;
  text(text: string): void;
  close(name: string): void;
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/** Content is not markup; these are dropped from the text anyway except textarea and title. */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);
/** Opening one of these closes an open `<p>` (HTML's "closes a p element"). */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dialog',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'ul',
]);
/** Deeper nesting is flattened: it only happens in hostile or broken pages, and keeps recursion bounded. */
const MAX_DEPTH = 256;

/** Which open element a new tag implicitly closes, and where the search for it stops. */
const IMPLIED_END = new Map<string, { closes: readonly string[]; stopAt: readonly string[] }>(
  Object.entries({
    li: { closes: ['li'], stopAt: ['ul', 'ol', 'menu'] },
    dt: { closes: ['dt', 'dd'], stopAt: ['dl'] },
    dd: { closes: ['dt', 'dd'], stopAt: ['dl'] },
    tr: { closes: ['tr', 'td', 'th'], stopAt: ['table', 'thead', 'tbody', 'tfoot'] },
    td: { closes: ['td', 'th'], stopAt: ['tr', 'table'] },
    th: { closes: ['td', 'th'], stopAt: ['tr', 'table'] },
    thead: { closes: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], stopAt: ['table'] },
    tbody: { closes: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], stopAt: ['table'] },
    tfoot: { closes: ['thead', 'tbody', 'tfoot', 'tr', 'td', 'th'], stopAt: ['table'] },
    option: { closes: ['option'], stopAt: ['select', 'datalist'] },
  }),
);
const P_SCOPE_STOP = ['table', 'td', 'th', 'caption', 'button', 'li', 'dd', 'dt', 'blockquote', 'template'];

/** A Map, not an object: `&constructor;` must not find Object.prototype. */
const NAMED_ENTITIES = new Map<string, string>(
  Object.entries({
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    nbsp: '\u00a0',
    ensp: '\u2002',
    emsp: '\u2003',
    thinsp: '\u2009',
    shy: '',
    zwj: '',
    zwnj: '',
    copy: '\u00a9',
    reg: '\u00ae',
    trade: '\u2122',
    hellip: '\u2026',
    mdash: '\u2014',
    ndash: '\u2013',
    minus: '\u2212',
    lsquo: '\u2018',
    rsquo: '\u2019',
    sbquo: '\u201a',
    ldquo: '\u201c',
    rdquo: '\u201d',
    bdquo: '\u201e',
    laquo: '\u00ab',
    raquo: '\u00bb',
    lsaquo: '\u2039',
    rsaquo: '\u203a',
    bull: '\u2022',
    middot: '\u00b7',
    times: '\u00d7',
    divide: '\u00f7',
    deg: '\u00b0',
    plusmn: '\u00b1',
    para: '\u00b6',
    sect: '\u00a7',
    euro: '\u20ac',
    pound: '\u00a3',
    yen: '\u00a5',
    cent: '\u00a2',
    larr: '\u2190',
    rarr: '\u2192',
    uarr: '\u2191',
    darr: '\u2193',
    harr: '\u2194',
    le: '\u2264',
    ge: '\u2265',
    ne: '\u2260',
    asymp: '\u2248',
    infin: '\u221e',
    frac12: '\u00bd',
    frac14: '\u00bc',
    frac34: '\u00be',
    iexcl: '\u00a1',
    iquest: '\u00bf',
    eacute: '\u00e9',
    egrave: '\u00e8',
    aacute: '\u00e1',
    agrave: '\u00e0',
    ouml: '\u00f6',
    uuml: '\u00fc',
    auml: '\u00e4',
    szlig: '\u00df',
    ccedil: '\u00e7',
    ntilde: '\u00f1',
    check: '\u2713',
  }),
);

/** Decodes character references: the common named ones, and every decimal or hex one. */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z][a-zA-Z0-9]{1,31});?/g, (match, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number(body.slice(1));
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
      return String.fromCodePoint(code);
    }
    return NAMED_ENTITIES.get(body) ?? NAMED_ENTITIES.get(body.toLowerCase()) ?? match;
  });
}

interface Tag {
  name: string;
  attrs: Readonly<Record<string, string>>;
  selfClosing: boolean;
  end: number;
}

const ATTRIBUTE = /\s*([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/y;

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/** Where a tag name starting at `at` ends: at whitespace, `/` or `>`. */
function nameEnd(html: string, at: number): number {
  let index = at;
  for (; index < html.length; index++) {
    const code = html.charCodeAt(index);
    if (isSpace(code) || code === 47 || code === 62) break;
  }
  return index;
}

/** Reads an opening tag whose name starts at `at` (just after `<`); null if it never ends. */
function readOpenTag(html: string, at: number): Tag | null {
  let index = nameEnd(html, at);
  const name = html.slice(at, index).toLowerCase();
  let attrs: Record<string, string> | null = null;
  for (;;) {
    while (index < html.length && isSpace(html.charCodeAt(index))) index++;
    const char = html.charAt(index);
    if (char === '') return null;
    if (char === '>') return { name, attrs: attrs ?? NO_ATTRIBUTES, selfClosing: false, end: index + 1 };
    if (char === '/') {
      if (html.charAt(index + 1) === '>')
        return { name, attrs: attrs ?? NO_ATTRIBUTES, selfClosing: true, end: index + 2 };
      index++;
      continue;
    }
    ATTRIBUTE.lastIndex = index;
    const attribute = ATTRIBUTE.exec(html);
    if (!attribute || attribute[0].length === 0) {
      index++;
      continue;
    }
    const key = (attribute[1] ?? '').toLowerCase();
    attrs ??= {};
    if (!Object.hasOwn(attrs, key)) attrs[key] = decodeEntities(attribute[2] ?? attribute[3] ?? attribute[4] ?? '');
    index += attribute[0].length;
  }
}

/** Keeps the stack of open elements and turns tags into balanced events, closing implied ends. */
class EventBuilder {
  private readonly stack: string[] = [];

  constructor(private readonly sink: HtmlSink) {}

  text(text: string): void {
    if (text !== '') this.sink.text(text);
  }

  open(name: string, attrs: Readonly<Record<string, string>>, selfClosing: boolean): void {
    const implied = IMPLIED_END.get(name);
    if (implied) this.closeNearest(implied.closes, implied.stopAt);
    if (CLOSES_P.has(name)) this.closeNearest(['p'], P_SCOPE_STOP);
    this.sink.open(name, attrs);
    if (VOID.has(name) || selfClosing || this.stack.length >= MAX_DEPTH) this.sink.close(name);
    else this.stack.push(name);
  }

  close(name: string): void {
    if (name === 'br') {
      this.open('br', NO_ATTRIBUTES, true);
      return;
    }
    const index = this.stack.lastIndexOf(name);
    if (index !== -1) this.popTo(index);
  }

  end(): void {
    this.popTo(0);
  }

  private popTo(index: number): void {
    while (this.stack.length > index) this.sink.close(this.stack.pop() as string);
  }

  private closeNearest(names: readonly string[], stopAt: readonly string[]): void {
    for (let index = this.stack.length - 1; index >= 0; index--) {
      const open = this.stack[index] as string;
      if (names.includes(open)) {
        this.popTo(index);
        return;
      }
      if (stopAt.includes(open)) return;
    }
  }
}

/** Parses an HTML document or fragment into `sink`'s events; never throws (unless the sink does). */
export function parseHtml(html: string, sink: HtmlSink): void {
  const tree = new EventBuilder(sink);
  // Past the last '>' no tag can end: the rest is text (keeps broken input from rescanning).
  const lastGt = html.lastIndexOf('>');
  let index = 0;
  while (index < html.length) {
    const lt = html.indexOf('<', index);
    if (lt === -1 || lt > lastGt) {
      tree.text(decodeEntities(html.slice(index)));
      break;
    }
    if (lt > index) tree.text(decodeEntities(html.slice(index, lt)));
    const next = html.charAt(lt + 1);
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      index = end === -1 ? html.length : end + 3;
    } else if (next === '!' || next === '?') {
      const end = html.indexOf('>', lt + 2);
      index = end === -1 ? html.length : end + 1;
    } else if (next === '/' && isLetter(html.charCodeAt(lt + 2))) {
      tree.close(html.slice(lt + 2, nameEnd(html, lt + 2)).toLowerCase());
      const end = html.indexOf('>', lt + 2);
      index = end === -1 ? html.length : end + 1;
    } else {
      const tag = isLetter(html.charCodeAt(lt + 1)) ? readOpenTag(html, lt + 1) : null;
      if (tag === null) {
        tree.text('<');
        index = lt + 1;
        continue;
      }
      index = tag.end;
      if (RAW_TEXT.has(tag.name) && !tag.selfClosing) {
        // Raw text runs to the matching end tag, whatever it contains.
        const endTag = new RegExp(`</${tag.name}`, 'gi');
        endTag.lastIndex = index;
        const close = endTag.exec(html)?.index ?? html.length;
        tree.open(tag.name, tag.attrs, false);
        const content = html.slice(index, close);
        tree.text(tag.name === 'textarea' || tag.name === 'title' ? decodeEntities(content) : content);
        tree.close(tag.name);
        const end = html.indexOf('>', close);
        index = end === -1 ? html.length : end + 1;
      } else {
        tree.open(tag.name, tag.attrs, tag.selfClosing);
      }
    }
  }
  tree.end();
}
