/**
 * A shell command line as a list of simple commands and redirections (PERM-4), for checking a `bash`
 * call command by command: `git status && rm -rf x` is two commands, `echo $(rm x)` runs `rm x`,
 * `echo hi > /outside` writes `/outside`, and `echo "a && b"` is one command.
 *
 * Parsing is just-bash's own parser (the one the `bash` tool executes with), reached through
 * `Bash.transform`, because the package's Worker build does not export `parse`. Its AST is walked
 * generically, so commands are found wherever bash can run one: lists and pipelines, `$(...)` and
 * backticks, `( ... )` and `{ ...; }`, process substitution, here-documents, `[[ ]]`, arithmetic,
 * parameter defaults, function bodies and control flow. Beyond the syntax, command text handed to
 * another command is parsed too when it is a literal: `bash -c` / `sh -c`, `eval`, `trap`, `alias`
 * definitions, and the commands run by `env`, `time`, `timeout`, `command`, `exec`, `xargs` and
 * `find -exec`. What cannot be known before run time is flagged, never guessed: a word holding an
 * expansion (`$X`, `$(...)`, a glob) is kept as written with `dynamic: true`.
 */
import type { BashTransformResult, ScriptNode, SimpleCommandNode, WordNode } from 'just-bash';

type RedirectionNode = SimpleCommandNode['redirections'][number];
type WordPart = WordNode['parts'][number];

/** A bash redirection operator. */
export type RedirectOperator = RedirectionNode['operator'];

/** What a redirection does with its target. */
export type RedirectAccess = 'read' | 'write' | 'read-write' | 'duplicate' | 'text';

export interface SimpleCommand {
  /** The command name and its arguments, quotes removed. */
  argv: string[];
  /** Some word holds an expansion known only at run time (`$X`, `$(...)`, a glob, `~`). */
  dynamic: boolean;
  /** The command that runs this one when it is not run by the shell itself (`xargs`, `bash -c`, ...). */
  via?: string;
}

export interface Redirect {
  /** As written, with its file descriptor: `>`, `2>`, `>>`, `&>`, `<`, `<<<`. */
  op: string;
  operator: RedirectOperator;
  fd: number | null;
  /** The file (or fd, for a duplication) after quote removal; the text for a here-string or -document. */
  target: string;
  access: RedirectAccess;
  dynamic: boolean;
}

export interface CommandLine {
  commands: SimpleCommand[];
  redirects: Redirect[];
  /** Command text that would run but cannot be analysed (e.g. `$(...)` inside `$((${x:-...}))`). */
  opaque: string[];
}

export class ShellSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShellSyntaxError';
  }
}

/** How deep command text inside command text (`eval "bash -c '...'"`) is followed. */
const MAX_NESTING = 8;

type ShellParser = (line: string) => BashTransformResult['ast'];

let parserPromise: Promise<ShellParser> | undefined;

/** just-bash is imported on first use so a Worker that never parses a command line never loads it. */
function loadParser(): Promise<ShellParser> {
  parserPromise ??= import('just-bash').then(({ Bash, InMemoryFs }) => {
    const bash = new Bash({ fs: new InMemoryFs(), cwd: '/', defenseInDepth: false });
    return (line: string) => bash.transform(line).ast;
  });
  return parserPromise;
}

/** Splits one command line into its simple commands and redirections; throws ShellSyntaxError. */
export async function parseCommandLine(line: string): Promise<CommandLine> {
  const parse = await loadParser();
  const out: CommandLine = { commands: [], redirects: [], opaque: [] };
  collectLine(parse, line, out, 0, undefined);
  return out;
}

function collectLine(parse: ShellParser, line: string, out: CommandLine, depth: number, via: string | undefined) {
  if (depth > MAX_NESTING) {
    out.opaque.push(line);
    return;
  }
  let ast: ScriptNode;
  try {
    ast = parse(line);
  } catch (error) {
    throw new ShellSyntaxError(error instanceof Error ? error.message : String(error));
  }
  walk(ast, { parse, out, depth, via });
}

interface WalkContext {
  parse: ShellParser;
  out: CommandLine;
  depth: number;
  via: string | undefined;
}

function walk(node: unknown, context: WalkContext): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, context);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const type = (node as { type?: unknown }).type;
  if (type === 'SimpleCommand') addCommand(node as SimpleCommandNode, context);
  else if (type === 'Redirection') addRedirect(node as RedirectionNode, context.out);
  else if (type === 'ArithCommandSubst') nested((node as { command: string }).command, 'arithmetic', context);
  else if (type === 'ArithBracedExpansion') {
    const content = (node as { content: string }).content;
    if (/`|\$\(/.test(content)) context.out.opaque.push(content);
  }
  for (const value of Object.values(node)) walk(value, context);
}

function nested(line: string, via: string, context: WalkContext): void {
  collectLine(context.parse, line, context.out, context.depth + 1, via);
}

function addCommand(node: SimpleCommandNode, context: WalkContext): void {
  if (node.name === null) return; // assignments only; their values are walked by the caller
  const words = [node.name, ...node.args].map(renderWord);
  const argv = words.map((word) => word.text);
  const dynamic = words.some((word) => word.dynamic);
  context.out.commands.push(context.via ? { argv, dynamic, via: context.via } : { argv, dynamic });
  followInnerCommands(argv, words, context);
}

// --- command text handed to another command --------------------------------------------------------

function followInnerCommands(argv: string[], words: RenderedWord[], context: WalkContext): void {
  const name = argv[0] ?? '';
  const literal = (index: number) => words[index] !== undefined && !(words[index] as RenderedWord).dynamic;
  if (name === 'eval') {
    if (argv.length > 1 && words.slice(1).every((word) => !word.dynamic))
      nested(argv.slice(1).join(' '), name, context);
    return;
  }
  if (name === 'bash' || name === 'sh') {
    const script = shellScriptIndex(argv);
    if (script !== undefined && literal(script)) nested(argv[script] as string, name, context);
    return;
  }
  if (name === 'trap') {
    if (argv.length > 2 && literal(1) && argv[1] !== '-' && !(argv[1] as string).startsWith('-')) {
      nested(argv[1] as string, name, context);
    }
    return;
  }
  if (name === 'alias') {
    for (let index = 1; index < argv.length; index++) {
      const eq = (argv[index] as string).indexOf('=');
      if (eq > 0 && literal(index)) nested((argv[index] as string).slice(eq + 1), name, context);
    }
    return;
  }
  if (name === 'find') {
    for (const [start, end] of findExecRanges(argv)) addInner(argv, words, start, end, name, context);
    return;
  }
  const start = wrappedCommandIndex(argv);
  if (start !== undefined && start < argv.length) addInner(argv, words, start, argv.length, name, context);
}

/** Records argv[start..end) as a command run by `via`, and follows what it runs in turn. */
function addInner(
  argv: string[],
  words: RenderedWord[],
  start: number,
  end: number,
  via: string,
  context: WalkContext,
): void {
  if (context.depth + 1 > MAX_NESTING) {
    context.out.opaque.push(argv.slice(start, end).join(' '));
    return;
  }
  const innerArgv = argv.slice(start, end);
  const innerWords = words.slice(start, end);
  const dynamic = innerWords.some((word) => word.dynamic);
  context.out.commands.push({ argv: innerArgv, dynamic, via });
  followInnerCommands(innerArgv, innerWords, { ...context, depth: context.depth + 1, via });
}

/** `bash -c SCRIPT` / `sh -xc SCRIPT`: the index of SCRIPT, or undefined when no `-c` is given. */
function shellScriptIndex(argv: string[]): number | undefined {
  let sawC = false;
  for (let index = 1; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--') return sawC ? index + 1 : undefined;
    if (arg.startsWith('-') && arg.length > 1 && !arg.startsWith('--')) {
      if (arg.includes('c')) sawC = true;
      if (arg === '-o' || arg === '+o') index++; // an option name follows
      continue;
    }
    if (arg.startsWith('--')) continue;
    return sawC ? index : undefined;
  }
  return undefined;
}

/** Commands that run the command given after their options (and `operands` operands of their own). */
const WRAPPERS: Readonly<Record<string, { withValue: readonly string[]; operands: number }>> = {
  env: { withValue: ['-u', '-C', '-S'], operands: 0 },
  time: { withValue: ['-f', '-o'], operands: 0 },
  timeout: { withValue: ['-s', '-k'], operands: 1 },
  command: { withValue: [], operands: 0 },
  exec: { withValue: ['-a'], operands: 0 },
  xargs: { withValue: ['-I', '-i', '-n', '-P', '-L', '-l', '-d', '-E', '-e', '-s', '-a'], operands: 0 },
  nice: { withValue: ['-n'], operands: 0 },
  nohup: { withValue: [], operands: 0 },
};

/** For `env A=1 rm x`, `timeout 5 rm x`, `xargs -n1 rm`, ...: where the wrapped command starts. */
function wrappedCommandIndex(argv: string[]): number | undefined {
  const name = argv[0] ?? '';
  const wrapper = WRAPPERS[name];
  if (!wrapper) return undefined;
  let operands = wrapper.operands;
  for (let index = 1; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--') return operands === 0 ? index + 1 : index + 1 + operands;
    if (arg.startsWith('-') && arg.length > 1) {
      if (wrapper.withValue.includes(arg)) index++;
      continue;
    }
    if (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg)) continue;
    if (operands > 0) {
      operands--;
      continue;
    }
    return index;
  }
  return undefined;
}

/** `find . -exec rm {} ;` and `-execdir`, `-ok`, `-okdir`: the argv ranges of the commands. */
function findExecRanges(argv: string[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (let index = 1; index < argv.length; index++) {
    if (!['-exec', '-execdir', '-ok', '-okdir'].includes(argv[index] as string)) continue;
    const start = index + 1;
    let end = start;
    while (end < argv.length && argv[end] !== ';' && argv[end] !== '+') end++;
    if (end > start) ranges.push([start, end]);
    index = end;
  }
  return ranges;
}

// --- redirections ----------------------------------------------------------------------------------

function accessOf(operator: RedirectOperator, target: string): RedirectAccess {
  switch (operator) {
    case '<':
      return 'read';
    case '<>':
      return 'read-write';
    case '<<':
    case '<<-':
    case '<<<':
      return 'text';
    case '<&':
      return 'duplicate';
    case '>&':
      // `2>&1` and `>&-` duplicate or close a descriptor; `>& file` is `&> file`.
      return /^\d+-?$|^-$/.test(target) ? 'duplicate' : 'write';
    default:
      return 'write';
  }
}

function addRedirect(node: RedirectionNode, out: CommandLine): void {
  const rendered = node.target.type === 'HereDoc' ? renderWord(node.target.content) : renderWord(node.target);
  const fd = node.fd;
  const prefix = node.fdVariable ? `{${node.fdVariable}}` : fd === null ? '' : String(fd);
  out.redirects.push({
    op: `${prefix}${node.operator}`,
    operator: node.operator,
    fd,
    target: rendered.text,
    access: accessOf(node.operator, rendered.text),
    dynamic: rendered.dynamic,
  });
}

// --- words -----------------------------------------------------------------------------------------

interface RenderedWord {
  text: string;
  dynamic: boolean;
}

function renderWord(word: WordNode): RenderedWord {
  const rendered: RenderedWord = { text: '', dynamic: false };
  renderParts(word.parts, rendered);
  return rendered;
}

function renderParts(parts: readonly WordPart[], into: RenderedWord): void {
  for (const part of parts) {
    switch (part.type) {
      case 'Literal':
      case 'SingleQuoted':
      case 'Escaped':
        into.text += part.value;
        break;
      case 'DoubleQuoted':
        renderParts(part.parts, into);
        break;
      case 'Glob':
        into.text += part.pattern;
        into.dynamic = true;
        break;
      case 'TildeExpansion':
        into.text += `~${part.user ?? ''}`;
        into.dynamic = true;
        break;
      case 'ParameterExpansion':
        into.text += part.operation === null ? `$${part.parameter}` : `\${${part.parameter}...}`;
        into.dynamic = true;
        break;
      case 'CommandSubstitution':
        into.text += part.legacy ? '`...`' : '$(...)';
        into.dynamic = true;
        break;
      case 'ArithmeticExpansion':
        into.text += '$((...))';
        into.dynamic = true;
        break;
      case 'ProcessSubstitution':
        into.text += part.direction === 'input' ? '<(...)' : '>(...)';
        into.dynamic = true;
        break;
      case 'BraceExpansion':
        into.text += `{${part.items
          .map((item) =>
            item.type === 'Word'
              ? renderWord(item.word).text
              : `${item.startStr ?? item.start}..${item.endStr ?? item.end}`,
          )
          .join(',')}}`;
        into.dynamic = true;
        break;
    }
  }
}
