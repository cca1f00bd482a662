/**
 * Command rules matched by meaning, not by spelling (PERM-1, PERM-4). A rule such as
 * `(bash, rm -rf *, deny)` must catch `rm -fr /docs`, `rm -r -f /docs`, `rm --recursive --force /docs`,
 * `rm /docs -rf` and `/bin/rm -rf /docs`. Both the command and the rule's pattern are brought to one
 * form: the command's name (without a directory), the set of its options (clusters split, long
 * spellings mapped to short ones, see command-options.ts) and its operands in order.
 *
 * A pattern matches a command when its name matches, every option it names is among the command's
 * options, and its operands match the command's operands (`*` any run of characters; a trailing
 * ` *` also matches nothing). A pattern without any wildcard is exact: same options, same operands.
 */
import { compileBuiltPattern, type LinearRegex } from '../patterns/index.js';
import { canonicalOptions } from './command-options.js';

export interface CanonicalCommand {
  name: string;
  /** Options in canonical spelling, sorted. */
  options: readonly string[];
  operands: readonly string[];
}

/** The command a word names: `/bin/rm` and `/usr/bin/rm` run `rm`. */
export function commandName(word: string): string {
  return word.includes('/') ? word.slice(word.lastIndexOf('/') + 1) : word;
}

/**
 * The canonical form of one simple command's argv. Words are read in Unicode NFC, the form rules and
 * thread paths are in: `rm -rf /cafe\u0301` is the command `rm -rf /café`, whose path it removes. A
 * name is not folded further: a full-width `ｒｍ` is no command the shell knows.
 */
export function canonicalCommand(argv: readonly string[]): CanonicalCommand {
  const words = argv.map((word) => word.normalize('NFC'));
  const name = commandName(words[0] ?? '');
  const options = new Set<string>();
  const operands: string[] = [];
  let optionsEnded = false;
  for (const word of words.slice(1)) {
    if (!optionsEnded && word === '--') {
      optionsEnded = true;
      continue;
    }
    const canonical = optionsEnded ? null : canonicalOptions(name, word);
    if (canonical) for (const option of canonical) options.add(option);
    else operands.push(word);
  }
  return { name, options: [...options].sort(), operands };
}

/** The command as rules and messages show it: `rm -f -r /docs`. */
export function commandText(command: CanonicalCommand): string {
  return [command.name, ...command.options, ...command.operands].join(' ');
}

const WILDCARD = /[*?]/;

/** A rule's glob as a pattern on the linear-time engine: the rule is a caller's, the command a model's. */
function globRegex(glob: string, optionalTrailingSpace: boolean): LinearRegex {
  let source = '';
  for (const char of glob) {
    source += char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // `push *` matches `push` alone too: the space before a trailing `*` is part of what it stands for.
  if (optionalTrailingSpace) source = source.replace(/ \.\*$/, '(?: .*)?');
  return compileBuiltPattern(`^${source}$`, { dotAll: true });
}

interface CommandPattern {
  name: LinearRegex;
  options: Array<(option: string) => boolean>;
  operands: LinearRegex;
  exact: boolean;
  /** Distinct options the pattern names: an exact pattern needs exactly these. */
  distinctOptions: number;
}

const compiled = new Map<string, CommandPattern>();

function compile(pattern: string): CommandPattern {
  let found = compiled.get(pattern);
  if (found) return found;
  const words = pattern.trim().split(/\s+/);
  const nameWord = commandName(words[0] ?? '');
  const options: CommandPattern['options'] = [];
  const operands: string[] = [];
  const named = new Set<string>();
  for (const word of words.slice(1)) {
    const canonical = word === '*' ? null : canonicalOptions(nameWord, word);
    if (!canonical) {
      operands.push(word);
      continue;
    }
    for (const option of canonical) {
      if (named.has(option)) continue;
      named.add(option);
      if (WILDCARD.test(option)) {
        const regex = globRegex(option, false);
        options.push((candidate) => regex.test(candidate));
      } else options.push((candidate) => candidate === option);
    }
  }
  found = {
    name: globRegex(nameWord, false),
    options,
    operands: globRegex(operands.join(' '), true),
    exact: !WILDCARD.test(pattern),
    distinctOptions: named.size,
  };
  compiled.set(pattern, found);
  return found;
}

/** Whether a command rule's pattern covers the command (see the header for the rule). */
export function commandPatternMatches(pattern: string, command: CanonicalCommand): boolean {
  if (pattern.trim() === '*') return true;
  const compiledPattern = compile(pattern);
  if (!compiledPattern.name.test(command.name)) return false;
  if (compiledPattern.exact && compiledPattern.distinctOptions !== command.options.length) return false;
  if (!compiledPattern.options.every((matches) => command.options.some(matches))) return false;
  return compiledPattern.operands.test(command.operands.join(' '));
}
