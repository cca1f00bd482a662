/**
 * HTML → markdown or plain text for `web_fetch` (LOCK-1, LOCK-3). Scripts, styles, forms and other
 * non-content elements are dropped; headings, paragraphs, links, lists, quotes, code and tables are
 * kept (as markdown syntax, or as plain lines in text format). Links and images are made absolute
 * against the page URL (or its `<base href>`). It renders straight from the parser's events, so memory
 * grows with the text kept, not with the markup. Pure JavaScript: runs on workerd and in Node alike.
 */

import { TextWriter } from '../files/index.js';
import { type HtmlSink, parseHtml } from './html-parser.js';
import {
  CODE_INLINE,
  codeLanguage,
  DROPPED,
  INLINE_MARKERS,
  LINE_BLOCKS,
  longestRun,
  PARAGRAPH_BLOCKS,
  parseUrl,
} from './html-vocabulary.js';

export type TextFormat = 'markdown' | 'text';

export interface HtmlToTextOptions {
  format: TextFormat;
  /** The page's URL: relative links and images resolve against it. */
  baseUrl?: string;
}

interface TableState {
  rows: string[][];
  captions: string[];
}

/** What closing an element has to undo or finish. */
type Frame =
  | { kind: 'plain'; block: 0 | 1 | 2 }
  | { kind: 'marker'; marker: string; token: number }
  | { kind: 'heading'; token: number }
  | { kind: 'link'; token: number; url: string }
  | { kind: 'list'; ordered: boolean; next: number }
  | { kind: 'prefixed'; writer: TextWriter; lines: 1 | 2 }
  | { kind: 'table'; table: TableState }
  | { kind: 'row' }
  | { kind: 'cell'; table: TableState | null; caption: boolean };

/** Text of a `<pre>` or inline code element, collected as written. */
interface Collector {
  kind: 'pre' | 'code';
  parts: string[];
  /** Open elements inside, so the collector's own end is known. */
  depth: number;
  language: string;
}

/** Converts an HTML document to markdown or text; never throws. */
export function htmlToText(html: string, options: HtmlToTextOptions): string {
  const renderer = new Renderer(options);
  parseHtml(html, renderer);
  return renderer.finish();
}

class Renderer implements HtmlSink {
  private readonly markdown: boolean;
  private base: URL | undefined;
  private baseSeen = false;
  private readonly writers: TextWriter[] = [new TextWriter()];
  private readonly frames: Frame[] = [];
  /** Open elements inside a dropped element (counting it). */
  private skipping = 0;
  private collector: Collector | null = null;
  private listDepth = 0;

  constructor(options: HtmlToTextOptions) {
    this.markdown = options.format === 'markdown';
    this.base = parseUrl(options.baseUrl);
  }

  private get writer(): TextWriter {
    return this.writers[this.writers.length - 1] as TextWriter;
  }

  finish(): string {
    return (this.writers[0] as TextWriter).finish();
  }

  text(text: string): void {
    if (this.skipping > 0) return;
    if (this.collector) this.collector.parts.push(text);
    else this.writer.text(text);
  }

  open(name: string, attrs: Readonly<Record<string, string>>): void {
    if (name === 'base' && !this.baseSeen && attrs.href) this.setBase(attrs.href);
    if (this.skipping > 0 || DROPPED.has(name) || attrs.hidden !== undefined || attrs['aria-hidden'] === 'true') {
      this.skipping++;
      return;
    }
    const collector = this.collector;
    if (collector) {
      collector.depth++;
      if (name === 'br') collector.parts.push('\n');
      if (name === 'code' && collector.language === '') collector.language = codeLanguage(attrs.class);
      return;
    }
    this.frames.push(this.begin(name, attrs));
  }

  close(_name: string): void {
    if (this.skipping > 0) {
      this.skipping--;
      return;
    }
    const collector = this.collector;
    if (collector) {
      collector.depth--;
      if (collector.depth > 0) return;
      this.collector = null;
      if (collector.kind === 'pre') this.codeBlock(collector);
      else this.inlineCode(collector.parts.join(''));
    }
    const frame = this.frames.pop();
    if (frame) this.end(frame);
  }

  /** Starts an element; returns what its end has to do. */
  private begin(name: string, attrs: Readonly<Record<string, string>>): Frame {
    const w = this.writer;
    const heading = /^h([1-6])$/.exec(name);
    if (heading) {
      w.block(2);
      const token = w.open(this.markdown && !w.inline ? `${'#'.repeat(Number(heading[1]))} ` : '');
      w.beginInline();
      return { kind: 'heading', token };
    }
    const marker = INLINE_MARKERS.get(name);
    if (marker !== undefined) {
      const shown = this.markdown ? marker : '';
      return { kind: 'marker', marker: shown, token: w.open(shown) };
    }
    if (CODE_INLINE.has(name) || name === 'pre') {
      const language = name === 'pre' ? codeLanguage(attrs.class) : '';
      this.collector = { kind: name === 'pre' ? 'pre' : 'code', parts: [], depth: 1, language };
      return { kind: 'plain', block: 0 };
    }
    switch (name) {
      case 'br':
        w.block(1);
        return { kind: 'plain', block: 0 };
      case 'hr':
        w.block(2);
        w.writeLine('---');
        return { kind: 'plain', block: 2 };
      case 'a':
        return this.link(attrs.href);
      case 'img':
        this.image(attrs);
        return { kind: 'plain', block: 0 };
      case 'ul':
      case 'ol':
      case 'menu': {
        w.block(this.listDepth > 0 ? 1 : 2);
        this.listDepth++;
        const start = Number.parseInt(attrs.start ?? '1', 10);
        return { kind: 'list', ordered: name === 'ol', next: Number.isFinite(start) ? start : 1 };
      }
      case 'li':
        return this.item();
      case 'blockquote':
        return this.prefixed(this.markdown ? '> ' : '  ', this.markdown ? '>' : '', 2);
      case 'dd':
        return this.prefixed('  ', '', 1);
      case 'table':
        return { kind: 'table', table: { rows: [], captions: [] } };
      case 'tr': {
        this.nearestTable()?.rows.push([]);
        return { kind: 'row' };
      }
      case 'td':
      case 'th':
      case 'caption': {
        const table = this.nearestTable();
        if (table && name !== 'caption' && table.rows.length === 0) table.rows.push([]);
        this.writers.push(new TextWriter(true));
        return { kind: 'cell', table, caption: name === 'caption' };
      }
    }
    const block = PARAGRAPH_BLOCKS.has(name) ? 2 : LINE_BLOCKS.has(name) ? 1 : 0;
    if (block !== 0) w.block(block);
    return { kind: 'plain', block };
  }

  private end(frame: Frame): void {
    const w = this.writer;
    switch (frame.kind) {
      case 'plain':
        if (frame.block !== 0) w.block(frame.block);
        return;
      case 'marker':
        w.close(frame.marker, frame.token);
        return;
      case 'heading':
        w.endInline();
        w.close('', frame.token);
        w.block(2);
        return;
      case 'link':
        w.endInline();
        w.close(`](${frame.url})`, frame.token);
        return;
      case 'list':
        this.listDepth--;
        w.block(this.listDepth > 0 ? 1 : 2);
        return;
      case 'prefixed':
        frame.writer.popPrefix();
        frame.writer.block(frame.lines);
        return;
      case 'table':
        this.table(frame.table);
        return;
      case 'row':
        return;
      case 'cell':
        this.cell(frame);
        return;
    }
  }

  private link(href: string | undefined): Frame {
    const target = href?.trim() ?? '';
    const url = this.markdown && target !== '' && !target.startsWith('#') ? this.resolve(target) : undefined;
    if (url === undefined) return { kind: 'plain', block: 0 };
    const token = this.writer.open('[');
    this.writer.beginInline();
    return { kind: 'link', token, url };
  }

  private image(attrs: Readonly<Record<string, string>>): void {
    if (!this.markdown) return;
    const alt = (attrs.alt ?? '').replace(/\s+/g, ' ').trim().replace(/[[\]]/g, '');
    const src = attrs.src?.trim() ?? '';
    if (alt === '' || src === '' || src.startsWith('data:')) return;
    const url = this.resolve(src);
    if (url !== undefined) this.writer.word(`![${alt}](${url})`);
  }

  private item(): Frame {
    let list: Extract<Frame, { kind: 'list' }> | undefined;
    for (let index = this.frames.length - 1; index >= 0 && !list; index--) {
      const frame = this.frames[index];
      if (frame?.kind === 'list') list = frame;
    }
    const marker = list?.ordered ? `${list.next++}. ` : '- ';
    const w = this.writer;
    w.block(1);
    w.pushPrefix(marker, ' '.repeat(marker.length), '');
    return { kind: 'prefixed', writer: w, lines: 1 };
  }

  private prefixed(prefix: string, blank: string, lines: 1 | 2): Frame {
    const w = this.writer;
    w.block(lines);
    w.pushPrefix(prefix, prefix, blank);
    return { kind: 'prefixed', writer: w, lines };
  }

  private inlineCode(raw: string): void {
    const w = this.writer;
    const collapsed = raw.replace(/\s+/g, ' ');
    const code = collapsed.trim();
    if (code === '') {
      if (collapsed !== '') w.text(' ');
      return;
    }
    if (collapsed.startsWith(' ')) w.text(' ');
    if (!this.markdown) w.word(code);
    else {
      const fence = '`'.repeat(longestRun(code, '`') + 1);
      const pad = code.startsWith('`') || code.endsWith('`') ? ' ' : '';
      w.word(`${fence}${pad}${code}${pad}${fence}`);
    }
    if (collapsed.endsWith(' ')) w.text(' ');
  }

  private codeBlock(collector: Collector): void {
    // trimEnd, not /\s+$/: that regex retries from every space of a long inner run, quadratic on a hostile page.
    const code = collector.parts.join('').replace(/\r\n?/g, '\n').replace(/^\n/, '').trimEnd();
    if (code === '') return;
    const w = this.writer;
    w.block(2);
    const fence = '`'.repeat(Math.max(3, longestRun(code, '`') + 1));
    if (this.markdown) w.writeLine(`${fence}${collector.language}`);
    for (const line of code.split('\n')) w.writeLine(line);
    if (this.markdown) w.writeLine(fence);
    w.block(2);
  }

  private nearestTable(): TableState | null {
    for (let index = this.frames.length - 1; index >= 0; index--) {
      const frame = this.frames[index];
      if (frame?.kind === 'table') return frame.table;
    }
    return null;
  }

  private cell(frame: Extract<Frame, { kind: 'cell' }>): void {
    const text = (this.writers.pop() as TextWriter).finish().replace(/\s+/g, ' ').trim();
    if (frame.caption) frame.table?.captions.push(text);
    else if (frame.table) frame.table.rows[frame.table.rows.length - 1]?.push(text);
    else this.writer.text(` ${text} `);
  }

  private table(table: TableState): void {
    const w = this.writer;
    const rows = table.rows.filter((row) => row.length > 0);
    const width = Math.max(0, ...rows.map((row) => row.length));
    w.block(2);
    for (const caption of table.captions) {
      w.text(caption);
      w.block(1);
    }
    if (width < 2) {
      // A one-column (layout) table reads as lines.
      for (const row of rows) {
        w.text(row.join(' '));
        w.block(1);
      }
    } else {
      rows.forEach((row, index) => {
        const cells = [...row, ...Array<string>(width - row.length).fill('')];
        if (!this.markdown) w.writeLine(cells.join(' | ').trimEnd());
        else {
          w.writeLine(`| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`);
          if (index === 0) w.writeLine(`|${' --- |'.repeat(width)}`);
        }
      });
    }
    w.block(2);
  }

  private setBase(href: string): void {
    this.baseSeen = true;
    // An unusable <base> leaves the page URL in force.
    this.base = parseUrl(href, this.base) ?? this.base;
  }

  private resolve(href: string): string | undefined {
    if (/^(?:javascript|vbscript|data):/i.test(href)) return undefined;
    try {
      return new URL(href, this.base).toString().replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/ /g, '%20');
    } catch {
      return undefined;
    }
  }
}
