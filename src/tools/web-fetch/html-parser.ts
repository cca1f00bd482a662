/**
 * The HTML reader of `web_fetch` (LOCK-1, LOCK-3): htmlparser2's tokenizer reads real-world markup
 * (tags, attributes, comments, raw text in script and style, RCDATA in title and textarea) and decodes
 * every character reference HTML defines, through `entities`; this file turns its tokens into balanced
 * open / text / close events, without building a tree, so a page of several megabytes converts in
 * little memory. Pure JavaScript, no Node built-ins: runs the same on workerd and in Node.
 *
 * The tree rules stay here, not in htmlparser2's Parser: the Parser keeps its open elements with
 * `Array.unshift`, so a hostile page of nested `<div>`s costs quadratic time (a 5 MB page, minutes of
 * CPU in one synchronous call), where this builder flattens nesting past MAX_DEPTH. The rules are
 * HTML's common ones: void elements, and the implied end tags of p, li, dt/dd, table parts and option,
 * searched within their scope; everything else closes where the markup says, or at the end of input.
 */
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';

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
/** Deeper nesting is flattened: it only happens in hostile or broken pages, and keeps the work linear. */
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

/**
 * The tokenizer's callbacks: positions in `html` become names, attributes and text for the builder.
 * Comments, doctypes, CDATA and processing instructions carry no page text and are ignored.
 */
class TokenReader implements TokenizerCallbacks {
  private tagName = '';
  private attrs: Record<string, string> | null = null;
  private attrName = '';
  private attrValue = '';

  constructor(
    private readonly html: string,
    private readonly tree: EventBuilder,
  ) {}

  ontext(start: number, endIndex: number): void {
    this.tree.text(this.html.slice(start, endIndex));
  }

  ontextentity(codepoint: number, _endIndex: number): void {
    this.tree.text(String.fromCodePoint(codepoint));
  }

  onopentagname(start: number, endIndex: number): void {
    this.tagName = this.html.slice(start, endIndex).toLowerCase();
    this.attrs = null;
  }

  onattribname(start: number, endIndex: number): void {
    this.attrName = this.html.slice(start, endIndex).toLowerCase();
    this.attrValue = '';
  }

  onattribdata(start: number, endIndex: number): void {
    this.attrValue += this.html.slice(start, endIndex);
  }

  onattribentity(codepoint: number): void {
    this.attrValue += String.fromCodePoint(codepoint);
  }

  onattribend(_quote: unknown, _endIndex: number): void {
    this.attrs ??= {};
    // The first of repeated attributes wins, as in browsers; `Object.hasOwn` ignores the prototype.
    if (!Object.hasOwn(this.attrs, this.attrName)) this.attrs[this.attrName] = this.attrValue;
  }

  onopentagend(_endIndex: number): void {
    this.tree.open(this.tagName, this.attrs ?? NO_ATTRIBUTES, false);
  }

  onselfclosingtag(_endIndex: number): void {
    this.tree.open(this.tagName, this.attrs ?? NO_ATTRIBUTES, true);
  }

  onclosetag(start: number, endIndex: number): void {
    this.tree.close(this.html.slice(start, endIndex).toLowerCase());
  }

  onend(): void {
    this.tree.end();
  }

  oncomment(): void {}
  oncdata(): void {}
  ondeclaration(): void {}
  onprocessinginstruction(): void {}
}

/** Parses an HTML document or fragment into `sink`'s events; never throws (unless the sink does). */
export function parseHtml(html: string, sink: HtmlSink): void {
  // Past the last '>' no tag can end: a '<' there is text (`a <b` at the very end reads as written),
  // where the tokenizer would drop an unfinished tag.
  const tail = html.indexOf('<', html.lastIndexOf('>') + 1);
  const source = tail === -1 ? html : html.slice(0, tail) + html.slice(tail).replaceAll('<', '&lt;');
  // Self-closing syntax is honoured on every element (`<div/>` is empty, `<script/>` has no content).
  const tokenizer = new Tokenizer(
    { decodeEntities: true, recognizeSelfClosing: true },
    new TokenReader(source, new EventBuilder(sink)),
  );
  tokenizer.write(source);
  tokenizer.end();
}
