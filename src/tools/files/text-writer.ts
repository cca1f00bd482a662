/**
 * The line writer behind `htmlToText` (web_fetch, LOCK-3): collects inline text with HTML's whitespace
 * collapsing, turns block boundaries into line breaks and blank lines, and keeps per-line prefixes for
 * list items and quotes. Inline markers (`**`, `[`) are deferred until content follows, so an empty
 * element leaves no stray markup.
 */

interface Prefix {
  /** On the first line written inside the prefix (a list marker). */
  first: string;
  /** On every later line. */
  rest: string;
  /** On blank lines. */
  blank: string;
  used: boolean;
}

export class TextWriter {
  private readonly lines: string[] = [];
  private line = '';
  private lineOpen = false;
  /** Newlines wanted before the next content: 1 starts a line, 2 leaves a blank line. */
  private breaks = 0;
  private space = false;
  private openers = '';
  private readonly prefixes: Prefix[] = [];
  /** Above zero, block boundaries become spaces: inside links, headings and table cells. */
  private inlineDepth = 0;

  constructor(inlineOnly = false) {
    if (inlineOnly) this.inlineDepth = 1;
  }

  /** Asks for a line break (1) or a blank line (2) before the next content. */
  block(lines: 1 | 2): void {
    if (this.inlineDepth > 0) {
      this.space = true;
      return;
    }
    this.breaks = Math.max(this.breaks, lines);
    this.space = false;
  }

  /** Inside a link, heading or table cell: no block structure can start here. */
  get inline(): boolean {
    return this.inlineDepth > 0;
  }

  beginInline(): void {
    this.inlineDepth++;
  }

  endInline(): void {
    this.inlineDepth--;
  }

  /** Text as HTML renders it: runs of whitespace collapse to one space. */
  text(text: string): void {
    const collapsed = text.replace(/\s+/g, ' ');
    if (collapsed === '') return;
    const core = collapsed.trim();
    if (collapsed.startsWith(' ')) this.space = true;
    if (core !== '') this.word(core);
    if (core === '' || collapsed.endsWith(' ')) this.space = true;
  }

  /** Content written as it is, after any pending space and markers. */
  word(content: string): void {
    if (!this.lineOpen || this.breaks > 0) this.startLine();
    else if (this.space) this.line += ' ';
    this.line += this.openers + content;
    this.openers = '';
    this.space = false;
  }

  /** A whole line written verbatim (code, table rows, rules). */
  writeLine(content: string): void {
    if (this.inlineDepth > 0) {
      this.text(content);
      return;
    }
    if (this.lineOpen) this.breaks = Math.max(this.breaks, 1);
    this.startLine();
    this.line += content;
  }

  /** Defers an opening marker; returns the token `close` needs. */
  open(marker: string): number {
    const token = this.openers.length;
    this.openers += marker;
    return token;
  }

  /** Writes the closing marker, or drops the opening one if nothing was written since. */
  close(marker: string, token: number): void {
    if (this.openers.length > token) {
      this.openers = this.openers.slice(0, token);
      return;
    }
    if (this.lineOpen) this.line += marker;
  }

  pushPrefix(first: string, rest: string, blank: string): void {
    this.prefixes.push({ first, rest, blank, used: false });
  }

  popPrefix(): void {
    this.prefixes.pop();
  }

  finish(): string {
    if (this.lineOpen) this.lines.push(this.line);
    this.lineOpen = false;
    const lines = this.lines.map((line) => line.trimEnd());
    while (lines.length > 0 && lines[0] === '') lines.shift();
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    return lines.join('\n');
  }

  private startLine(): void {
    if (this.lineOpen) this.lines.push(this.line);
    if (this.lines.length > 0) {
      // A prefix not used yet opened after the break was asked for: its blank lines are outside it.
      const blank = this.prefixes.map((prefix) => (prefix.used ? prefix.blank : '')).join('');
      for (let index = 1; index < this.breaks; index++) this.lines.push(blank);
    }
    this.line = this.prefixes
      .map((prefix) => {
        if (prefix.used) return prefix.rest;
        prefix.used = true;
        return prefix.first;
      })
      .join('');
    this.lineOpen = true;
    this.breaks = 0;
    this.space = false;
  }
}
