/**
 * PERM-4: a command line split into its simple commands and redirections, and the checker that
 * denies the whole line when one part is denied. The parser is just-bash's, so the split is the one
 * the `bash` tool executes.
 */
import { describe, expect, it } from 'vitest';
import type { GuardDecision } from '../../../../src/engine/execute/executor.js';
import { parseCommandLine, ShellSyntaxError } from '../../../../src/engine/shell/shell-commands.js';

const argvs = async (line: string) => (await parseCommandLine(line)).commands.map((command) => command.argv);
const _allow: GuardDecision = { action: 'allow' };

describe('parseCommandLine', () => {
  it('PERM-4: `git status && rm -rf x` is two commands', async () => {
    expect(await argvs('git status && rm -rf x')).toEqual([
      ['git', 'status'],
      ['rm', '-rf', 'x'],
    ]);
  });

  it('PERM-4: pipes, `;`, `||` and newlines separate commands', async () => {
    expect(await argvs('a | b')).toEqual([['a'], ['b']]);
    expect(await argvs('a; b || c && d')).toEqual([['a'], ['b'], ['c'], ['d']]);
    expect(await argvs('echo one\nrm two')).toEqual([
      ['echo', 'one'],
      ['rm', 'two'],
    ]);
    expect(await argvs('a |& b; c &')).toEqual([['a'], ['b'], ['c']]);
  });

  it('PERM-4: quotes and escapes keep separators inside one argument', async () => {
    expect(await argvs('echo "a && b"')).toEqual([['echo', 'a && b']]);
    expect(await argvs("echo 'x | rm y; z'")).toEqual([['echo', 'x | rm y; z']]);
    expect(await argvs('echo a\\;b \\&\\& c')).toEqual([['echo', 'a;b', '&&', 'c']]);
    expect(await argvs('printf "%s\\n" "it\'s"')).toEqual([['printf', '%s\\n', "it's"]]);
  });

  it('PERM-4: `$(...)` and backticks are descended into', async () => {
    const line = await parseCommandLine('echo $(rm x)');
    expect(line.commands).toEqual([
      { argv: ['echo', '$(...)'], dynamic: true },
      { argv: ['rm', 'x'], dynamic: false },
    ]);
    expect(await argvs('echo `rm y` "$(cat z)"')).toEqual([
      ['echo', '`...`', '$(...)'],
      ['rm', 'y'],
      ['cat', 'z'],
    ]);
    expect(await argvs('X=$(rm z)')).toEqual([['rm', 'z']]);
  });

  it('PERM-4: nested subshells, groups, functions and control flow are descended into', async () => {
    expect(await argvs('(a && (b; $(c | (d))))')).toEqual([['a'], ['b'], ['$(...)'], ['c'], ['d']]);
    expect(await argvs('{ a; b; } && f() { rm fn; }')).toEqual([['a'], ['b'], ['rm', 'fn']]);
    expect(await argvs('for f in *.txt; do rm "$f"; done; if test -f x; then cat x; fi')).toEqual([
      ['rm', '$f'],
      ['test', '-f', 'x'],
      ['cat', 'x'],
    ]);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, not a template
    expect(await argvs('[[ -f $(rm cond) ]]; echo ${x:-$(rm def)} $((1 + $(rm ar)))')).toEqual([
      ['rm', 'cond'],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash parameter expansion, not a template
      ['echo', '${x...}', '$((...))'],
      ['rm', 'def'],
      ['rm', 'ar'],
    ]);
    expect(await argvs('diff <(cat a) >(tee b)')).toEqual([
      ['diff', '<(...)', '>(...)'],
      ['cat', 'a'],
      ['tee', 'b'],
    ]);
    expect(await argvs('cat <<EOF\n$(rm heredoc)\nEOF')).toEqual([['cat'], ['rm', 'heredoc']]);
  });

  it('PERM-4: redirections are found with their operators and targets', async () => {
    const line = await parseCommandLine('echo hi > /outside');
    expect(line.redirects).toEqual([
      { op: '>', operator: '>', fd: null, target: '/outside', access: 'write', dynamic: false },
    ]);
    const all = await parseCommandLine('cat < in 2> err &> both >> app 2>&1 3<> rw <<< "text"');
    expect(all.redirects.map(({ op, target, access }) => [op, target, access])).toEqual([
      ['<', 'in', 'read'],
      ['2>', 'err', 'write'],
      ['&>', 'both', 'write'],
      ['>>', 'app', 'write'],
      ['2>&', '1', 'duplicate'],
      ['3<>', 'rw', 'read-write'],
      ['<<<', 'text', 'text'],
    ]);
    const nested = await parseCommandLine('echo $(echo x > "/in sub") | tee out >& "log file"');
    expect(nested.redirects.map(({ target, access }) => [target, access])).toEqual([
      ['/in sub', 'write'],
      ['log file', 'write'],
    ]);
  });

  it('PERM-4: words known only at run time are kept as written and flagged dynamic', async () => {
    const [command] = (await parseCommandLine('rm *.txt ~/a "$HOME" {a,b}')).commands;
    expect(command).toEqual({ argv: ['rm', '*.txt', '~/a', '$HOME', '{a,b}'], dynamic: true });
    const [redirect] = (await parseCommandLine('echo x > "$OUT"')).redirects;
    expect(redirect).toMatchObject({ target: '$OUT', dynamic: true, access: 'write' });
  });

  it('PERM-4: command text handed to bash -c, eval, xargs, find -exec and wrappers is checked too', async () => {
    const line = await parseCommandLine('bash -c \'rm q && ls\' ; eval "rm e"');
    expect(line.commands).toEqual([
      { argv: ['bash', '-c', 'rm q && ls'], dynamic: false },
      { argv: ['rm', 'q'], dynamic: false, via: 'bash' },
      { argv: ['ls'], dynamic: false, via: 'bash' },
      { argv: ['eval', 'rm e'], dynamic: false },
      { argv: ['rm', 'e'], dynamic: false, via: 'eval' },
    ]);
    expect(await argvs('find . -name "*.log" -exec rm {} \\;')).toEqual([
      ['find', '.', '-name', '*.log', '-exec', 'rm', '{}', ';'],
      ['rm', '{}'],
    ]);
    expect(await argvs('ls | xargs -n 1 rm -f')).toEqual([['ls'], ['xargs', '-n', '1', 'rm', '-f'], ['rm', '-f']]);
    expect(await argvs('env A=1 timeout -s KILL 5 rm w')).toEqual([
      ['env', 'A=1', 'timeout', '-s', 'KILL', '5', 'rm', 'w'],
      ['timeout', '-s', 'KILL', '5', 'rm', 'w'],
      ['rm', 'w'],
    ]);
    expect(await argvs("trap 'rm t' EXIT; alias ll='rm -rf data'")).toEqual([
      ['trap', 'rm t', 'EXIT'],
      ['rm', 't'],
      ['alias', 'll=rm -rf data'],
      ['rm', '-rf', 'data'],
    ]);
    expect(await argvs('time rm t')).toEqual([['rm', 't']]);
  });

  it('PERM-4: a line that does not parse throws ShellSyntaxError', async () => {
    await expect(parseCommandLine('echo "unterminated')).rejects.toBeInstanceOf(ShellSyntaxError);
    await expect(parseCommandLine('if then')).rejects.toBeInstanceOf(ShellSyntaxError);
  });
});
