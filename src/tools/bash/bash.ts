/**
 * `bash` (LOCK-1, seed 003): runs one command line — "a single command, not a shell session" — in
 * just-bash, a simulated bash written in TypeScript that runs on workerd (no host shell exists on
 * Workers). The shell's filesystem is the thread filesystem (ATT-1) through `ThreadShellFs`: `/` is
 * the thread root, what a command reads is read from the thread and what it writes lands there at
 * once, so `read`, `write` and HTTP downloads see the same files.
 *
 * Each call is a fresh shell: variables, functions and `cd` do not carry over; files do. stdout and
 * stderr come back interleaved, as a terminal shows them; a non-zero exit is an error result carrying
 * the output. The runtime cuts output past 200 KB to a head plus a sidecar file (LOCK-6).
 */
import type { BashExecResult, CustomCommand, ScriptNode, TransformPlugin } from 'just-bash';
import { z } from 'zod';
import { AccessDenied } from '../../engine/permissions/index.js';
import type { ShellRunRequirement, ThreadState } from '../../spec/index.js';
import { defineTool } from '../../spec/index.js';
import { ThreadShellFs } from './bash-fs.js';

export const DEFAULT_COMMAND_TIMEOUT_MS = 30_000;
export const MAX_COMMAND_TIMEOUT_MS = 120_000;
/** What the shell keeps in memory for one call's output before failing it; the model sees 200 KB. */
const MAX_SHELL_OUTPUT_BYTES = 8 * 1024 * 1024;

/**
 * just-bash's commands that work on workerd: its Worker build has no `sqlite3`, and `curl`,
 * `python3` and `js-exec` stay off (no network or interpreters are granted to the shell).
 * `html-to-markdown` stays off too: the library behind it trims whitespace with backtracking regexes
 * (a `<pre>` of 200,000 spaces and a letter took 49 s to convert under Node 20; one of 1,000,000
 * took 12 s in workerd, all of it holding the thread).
 */
// biome-ignore format: one dense list reads better than a hundred lines
export const SHELL_COMMANDS = [
  'echo', 'cat', 'printf', 'ls', 'mkdir', 'rmdir', 'touch', 'rm', 'cp', 'mv', 'ln', 'chmod', 'pwd', 'readlink',
  'head', 'tail', 'wc', 'stat', 'grep', 'fgrep', 'egrep', 'rg', 'sed', 'awk', 'sort', 'uniq', 'comm', 'cut',
  'paste', 'tr', 'rev', 'nl', 'fold', 'expand', 'unexpand', 'strings', 'split', 'column', 'join', 'tee', 'find',
  'basename', 'dirname', 'tree', 'du', 'env', 'printenv', 'alias', 'unalias', 'history', 'xargs', 'true',
  'false', 'clear', 'bash', 'sh', 'jq', 'base64', 'diff', 'date', 'sleep', 'timeout', 'time', 'seq', 'expr',
  'md5sum', 'sha1sum', 'sha256sum', 'file', 'help', 'which', 'tac', 'hostname', 'whoami',
  'od', 'gzip', 'gunzip', 'zcat', 'tar', 'yq', 'xan',
] as const;

/** Shell builtins (just-bash's list): a command line may use them wherever a command may stand. */
// biome-ignore format: one dense list reads better than sixty lines
export const SHELL_BUILTINS = [
  ':', 'true', 'false', 'cd', 'export', 'unset', 'exit', 'local', 'set', 'break', 'continue', 'return', 'eval',
  'shift', 'getopts', 'compgen', 'complete', 'compopt', 'pushd', 'popd', 'dirs', 'source', '.', 'read',
  'mapfile', 'readarray', 'declare', 'typeset', 'readonly', 'let', 'command', 'shopt', 'exec', 'test', '[',
  'echo', 'printf', 'pwd', 'alias', 'unalias', 'type', 'hash', 'ulimit', 'umask', 'trap', 'times', 'wait',
  'kill', 'jobs', 'fg', 'bg', 'disown', 'suspend', 'fc', 'history', 'help', 'enable', 'builtin', 'caller',
] as const;

/**
 * The tool's shell requirement (LOCK-5): every command and builtin the simulated shell can run, with
 * any arguments. Permission rules narrow it per command (PERM-4 checks a line command by command).
 */
export const SHELL_REQUIREMENTS: ShellRunRequirement[] = [...new Set<string>([...SHELL_COMMANDS, ...SHELL_BUILTINS])]
  .sort()
  .map((cmd) => ({ cmd }));

const args = z.object({
  command: z.string().min(1).describe('The bash command line to run, e.g. "ls -la && cat notes.md"'),
  timeout_ms: z
    .number()
    .int()
    .min(1)
    .max(MAX_COMMAND_TIMEOUT_MS)
    .default(DEFAULT_COMMAND_TIMEOUT_MS)
    .describe(`Milliseconds before the command is stopped, at most ${MAX_COMMAND_TIMEOUT_MS}`),
});

export const bash = defineTool({
  description: "Run one bash command line in a simulated shell over the thread's files",
  args,
  acpKind: 'execute',
  requires: {
    shell: SHELL_REQUIREMENTS,
    fs: { read: ['{workspace}/**'], write: ['{workspace}/**'] },
  },
  // Checked command by command, redirect targets as file writes (PERM-4).
  access: (input) => ({ commands: [input.command] }),
  maxOutputBytes: 200 * 1024,
  // The command's own timeout governs; the runtime's is a backstop past the longest one allowed.
  timeout: MAX_COMMAND_TIMEOUT_MS + 10_000,
  execute: async (state, input) => {
    const timeoutMs = Math.min(input.timeout_ms, MAX_COMMAND_TIMEOUT_MS);
    const { Bash, defineCommand } = await import('just-bash');
    const fs = new ThreadShellFs(state);
    const shell = new Bash({
      fs,
      cwd: '/',
      commands: [...SHELL_COMMANDS],
      customCommands: checkedCommands(state, fs.refusals, defineCommand),
      // The isolate is the sandbox on Workers; patching globals would reach other code in the isolate.
      defenseInDepth: false,
      executionLimits: { maxExecutionTimeMs: timeoutMs, maxOutputSize: MAX_SHELL_OUTPUT_BYTES },
    });
    shell.registerTransformPlugin(combineStderr());

    const controller = new AbortController();
    let stopped: string | null = null;
    const stop = (reason: string) => {
      if (stopped !== null) return;
      stopped = reason;
      controller.abort(new Error(reason));
    };
    const outer = state.execution?.abortSignal;
    const onOuterAbort = () => stop(abortMessage(outer?.reason));
    if (outer?.aborted) onOuterAbort();
    outer?.addEventListener('abort', onOuterAbort);
    const timedOut = `Command timed out after ${timeoutMs} ms`;
    const timer = setTimeout(() => stop(timedOut), timeoutMs);
    const started = Date.now();
    const abandoned = new Promise<null>((resolve) => {
      controller.signal.addEventListener('abort', () => resolve(null));
    });
    try {
      // A command that ignores the signal is abandoned rather than waited for.
      const result = await Promise.race([shell.exec(input.command, { signal: controller.signal }), abandoned]);
      // On a busy machine the shell's own deadline (the same timeoutMs) can end the command before the
      // timer gets to run: a failure once the deadline has passed is the deadline.
      if (stopped === null && result && result.exitCode !== 0 && Date.now() - started >= timeoutMs) stopped = timedOut;
      if (stopped !== null || result === null) {
        const partial = result ? combinedOutput(result) : '';
        return { status: 'error', error: partial ? `${stopped}\n${partial}` : (stopped ?? 'Command stopped') };
      }
      const output = [combinedOutput(result), refusalNote(fs.refusals)].filter((part) => part !== '').join('\n');
      // A refused operation fails the call even when the command carried on (`rm -f` ignores errors).
      if (result.exitCode !== 0 || fs.refusals.size > 0) {
        return { status: 'error', error: `Exit code ${result.exitCode}\n${output}` };
      }
      return { status: 'success', result: output === '' ? '(no output)' : output };
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuterAbort);
    }
  },
});

/**
 * Every command of the shell's set, checked as it really runs (PERM-4): with its arguments after
 * expansion, wherever it comes from (`eval`, `xargs`, `find -exec`, `bash -c`, a sourced script), so
 * a rule refuses it however the line spells it. A refused command exits 126 and runs nothing.
 */
function checkedCommands(
  state: ThreadState,
  refusals: Set<string>,
  defineCommand: typeof import('just-bash').defineCommand,
): CustomCommand[] {
  return SHELL_COMMANDS.map((name) =>
    defineCommand(name, async (argv, context) => {
      try {
        state.authorize({ argv: [name, ...argv] });
      } catch (error) {
        if (!(error instanceof AccessDenied)) throw error;
        refusals.add(error.message);
        return { stdout: '', stderr: `${name}: permission denied\n`, exitCode: 126 };
      }
      if (!context.origCommand) throw new Error(`${name}: the shell has no such command`);
      return context.origCommand(argv);
    }),
  );
}

/** What the model is told about operations the permission rules refused during the command. */
function refusalNote(refusals: ReadonlySet<string>): string {
  if (refusals.size === 0) return '';
  return `[Refused by this thread's permission rules:\n${[...refusals].map((reason) => `- ${reason}`).join('\n')}]`;
}

function abortMessage(reason: unknown): string {
  if (reason instanceof Error && reason.message) return reason.message;
  return typeof reason === 'string' && reason ? reason : 'Command stopped';
}

function combinedOutput(result: BashExecResult): string {
  // combineStderr folds stderr into stdout; what remains is the shell's own (a parse error, a limit).
  if (result.stderr === '') return result.stdout;
  if (result.stdout === '' || result.stdout.endsWith('\n')) return result.stdout + result.stderr;
  return `${result.stdout}\n${result.stderr}`;
}

type Pipeline = ScriptNode['statements'][number]['pipelines'][number];

const STDERR_TO_STDOUT: Extract<Pipeline['commands'][number], { type: 'Group' }>['redirections'][number] = {
  type: 'Redirection',
  fd: 2,
  operator: '>&',
  target: { type: 'Word', parts: [{ type: 'Literal', value: '1' }] },
};

/**
 * Runs each top-level pipeline as `{ pipeline; } 2>&1`, so the output reads in the order a terminal
 * shows it: `ls missing; echo after` prints the error before "after" (within one pipeline, stderr
 * follows stdout). It rewrites the parsed tree, never the text; nested scripts (`bash -c`, `eval`,
 * function bodies) are left alone so their own redirections (`f 2>/dev/null`) keep their meaning. A
 * line that redirects the shell's own descriptors (`exec 2>/dev/null`) is left whole.
 */
function combineStderr(): TransformPlugin {
  let applied = false;
  return {
    name: 'combine-stderr',
    transform({ ast }) {
      if (applied) return { ast };
      applied = true;
      if (redirectsShell(ast)) return { ast };
      const statements = ast.statements.map((statement) => ({
        ...statement,
        pipelines: statement.pipelines.map(
          (pipeline): Pipeline => ({
            type: 'Pipeline',
            negated: false,
            commands: [
              {
                type: 'Group',
                body: [{ type: 'Statement', pipelines: [pipeline], operators: [], background: false }],
                redirections: [STDERR_TO_STDOUT],
              },
            ],
          }),
        ),
      }));
      return { ast: { ...ast, statements } };
    },
  };
}

function redirectsShell(ast: ScriptNode): boolean {
  return ast.statements.some((statement) =>
    statement.pipelines.some((pipeline) =>
      pipeline.commands.some(
        (command) =>
          command.type === 'SimpleCommand' &&
          command.args.length === 0 &&
          command.name?.parts.length === 1 &&
          command.name.parts[0]?.type === 'Literal' &&
          command.name.parts[0].value === 'exec',
      ),
    ),
  );
}
