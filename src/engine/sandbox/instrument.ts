/**
 * The instrumentation of a sandboxed program's JavaScript (CODE-1). Locally workerd enforces no CPU or
 * memory limit on a loaded isolate, so a `while (true) {}` would freeze the whole process: the code is
 * made to call a guard at the start of every loop body and every function body, and the guard throws
 * once the run is over its limits. What a spread copies (`...list`) passes through the guard too, so
 * the memory ledger sees it. Import specifiers are rewritten to the emitted module names, and
 * anything that could import past the program's own modules is refused. Regex literals become calls
 * that compile them for the linear-time engine (isolate-regexp.ts).
 *
 * Every change is text inserted or replaced at a node's position, never a newline, so a stack trace's
 * line numbers are the user's own.
 */
import type { AnyNode, Program } from 'acorn';
import { programCompilers } from './compilers-loader.js';
import { resolveSpecifier } from './module-names.js';

/** One change to the source: `text` replaces `start..end` (an insertion when they are equal). */
interface Edit {
  start: number;
  end: number;
  text: string;
  /**
   * The order of edits at one position: closing text of nested nodes first (innermost first), then
   * opening text (outermost first), so `a => b => c` becomes `a => (G(), b => (G(), c))`.
   */
  rank: number;
}

export interface CodeProblem {
  message: string;
  /** 1-based. */
  line: number;
  /** 1-based. */
  column: number;
}

export interface InstrumentedCode {
  code: string;
  /** The program's top-level import declarations, specifiers rewritten, to be hoisted out of its body. */
  imports: string[];
}

export interface InstrumentOptions {
  /** The guard's global name. */
  guard: string;
  /** The emitted name of the file, for resolving relative imports. */
  emittedName: string;
  /** Each module's name without extension, to its emitted name. */
  modules: ReadonlyMap<string, string>;
  /** The program: the body of an async function (top-level `return`, no `export`, imports hoisted). */
  isProgram: boolean;
}

/** acorn's syntax errors carry where they were raised. */
interface AcornSyntaxError extends SyntaxError {
  loc?: { line: number; column: number };
}

function parseCode(code: string, isProgram: boolean): Program | CodeProblem {
  try {
    return programCompilers().parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'module',
      allowReturnOutsideFunction: isProgram,
      allowAwaitOutsideFunction: true,
      locations: true,
    });
  } catch (error) {
    const { message, loc } = error as AcornSyntaxError;
    // acorn ends its message with "(line:column)"; the position is reported on its own.
    return { message: message.replace(/ \(\d+:\d+\)$/, ''), line: loc?.line ?? 1, column: (loc?.column ?? 0) + 1 };
  }
}

function problemAt(node: AnyNode, message: string): CodeProblem {
  return { message, line: node.loc?.start.line ?? 1, column: (node.loc?.start.column ?? 0) + 1 };
}

/** The text with every character but line breaks turned to spaces: a statement removed, its lines kept. */
function blanked(text: string): string {
  return text.replace(/[^\n\r\u2028\u2029]/g, ' ');
}

function applyEdits(code: string, edits: Edit[]): string {
  const ordered = [...edits].sort((a, b) => a.start - b.start || a.rank - b.rank);
  let out = '';
  let cursor = 0;
  for (const edit of ordered) {
    out += code.slice(cursor, edit.start) + edit.text;
    cursor = Math.max(cursor, edit.end);
  }
  return out + code.slice(cursor);
}

/** A string literal's value, or null for anything computed (a template with substitutions, a variable). */
function literalSpecifier(node: AnyNode): string | null {
  if (node.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? null;
  return null;
}

/**
 * Instruments one file's JavaScript (types already stripped). Returns the new code, or the first
 * problem found: a syntax error, an export in the program, an import that is not one of the modules.
 */
export function instrumentCode(code: string, options: InstrumentOptions): InstrumentedCode | CodeProblem {
  const tree = parseCode(code, options.isProgram);
  if (!('type' in tree)) return tree;
  const guardCall = `${options.guard}();`;
  const edits: Edit[] = [];
  const imports: string[] = [];
  // Recorded in the order the walk meets them; the first is reported.
  const problems: CodeProblem[] = [];

  /** The new specifier literal for `source`, or null once a problem is recorded. */
  const rewrite = (source: AnyNode): string | null => {
    const specifier = literalSpecifier(source);
    if (specifier === null) {
      problems.push(problemAt(source, 'import() needs a string literal naming one of the modules, such as "./util"'));
      return null;
    }
    const resolved = resolveSpecifier(specifier, options.emittedName, options.modules);
    if (!resolved.ok) {
      problems.push(problemAt(source, resolved.problem));
      return null;
    }
    return JSON.stringify(resolved.specifier);
  };

  programCompilers().fullAncestor(tree, (node, _state, ancestors) => {
    const depth = ancestors.length;
    switch (node.type) {
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
      case 'WhileStatement':
      case 'DoWhileStatement': {
        const body = node.body;
        if (body.type === 'BlockStatement') {
          edits.push({ start: body.start + 1, end: body.start + 1, text: guardCall, rank: 0 });
        } else {
          edits.push({ start: body.start, end: body.start, text: `{${guardCall}`, rank: depth });
          edits.push({ start: body.end, end: body.end, text: '}', rank: -depth });
        }
        return;
      }
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        // A call of an async function is held until it finishes, so its guard also charges the
        // memory ledger: a loop starting calls that wait would otherwise fill the heap uncounted.
        const callGuard = node.async ? `${options.guard}.asyncCall()` : `${options.guard}()`;
        const body = node.body;
        if (body.type === 'BlockStatement') {
          edits.push({ start: body.start + 1, end: body.start + 1, text: `${callGuard};`, rank: 0 });
        } else {
          edits.push({ start: body.start, end: body.start, text: `(${callGuard}, `, rank: depth });
          edits.push({ start: body.end, end: body.end, text: ')', rank: -depth });
        }
        return;
      }
      case 'SpreadElement': {
        // `[...a, ...a]` doubles an array without calling any allocator the ledger wraps: the guard
        // is handed what is spread, charges its length, and gives it back.
        const argument = node.argument;
        edits.push({ start: argument.start, end: argument.start, text: `${options.guard}(`, rank: depth });
        edits.push({ start: argument.end, end: argument.end, text: ')', rank: -depth });
        return;
      }
      case 'Literal': {
        // A regex literal runs on the linear-time engine (isolate-regexp.ts): it becomes a call that
        // makes the same RegExp, after any guard text inserted at the same place.
        if ('regex' in node && node.regex) {
          const { pattern, flags } = node.regex;
          const text = `${options.guard}.regexp(${JSON.stringify(pattern)}, ${JSON.stringify(flags)})`;
          edits.push({ start: node.start, end: node.end, text, rank: Number.MAX_SAFE_INTEGER });
        }
        return;
      }
      case 'ImportDeclaration': {
        const literal = rewrite(node.source);
        if (literal === null) return;
        if (options.isProgram) {
          // Imports are hoisted wherever they are written; the program's body becomes a function's,
          // where an import may not stand, so each moves after it and leaves blank space behind.
          imports.push(code.slice(node.start, node.source.start) + literal + code.slice(node.source.end, node.end));
          edits.push({ start: node.start, end: node.end, text: blanked(code.slice(node.start, node.end)), rank: 0 });
        } else {
          edits.push({ start: node.source.start, end: node.source.end, text: literal, rank: 0 });
        }
        return;
      }
      case 'ImportExpression': {
        const literal = rewrite(node.source);
        if (literal !== null) edits.push({ start: node.source.start, end: node.source.end, text: literal, rank: 0 });
        return;
      }
      case 'ExportNamedDeclaration':
      case 'ExportDefaultDeclaration':
      case 'ExportAllDeclaration': {
        if (options.isProgram) {
          problems.push(
            problemAt(
              node,
              'the program cannot export anything: it returns its result; shared code belongs in a module',
            ),
          );
          return;
        }
        if (node.type !== 'ExportDefaultDeclaration' && node.source) {
          const literal = rewrite(node.source);
          if (literal !== null) edits.push({ start: node.source.start, end: node.source.end, text: literal, rank: 0 });
        }
        return;
      }
      default:
        return;
    }
  });

  const [first] = problems;
  if (first) return first;
  return { code: applyEdits(code, edits), imports };
}
