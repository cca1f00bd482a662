/**
 * The layout a newcomer reads is the layout there is: every folder under src/ is a room with a door
 * (`index.ts`), none holds more than 20 files, and the layout section of docs/architecture.md names
 * exactly the folders that exist. The import rules themselves are checked by dependency-cruiser in `npm run lint`.
 * The agent loop stays readable: no function of `engine/turn` or `engine/step` is longer than 80 lines.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const MAX_FILES_PER_FOLDER = 20;
const MAX_FUNCTION_LINES = 80;
/** The rooms whose functions are held to MAX_FUNCTION_LINES. */
const LOOP_ROOMS = ['src/engine/turn', 'src/engine/step'];

function folders(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) found.push(path, ...folders(path));
  }
  return found;
}

function filesIn(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).filter((name) => statSync(join(ROOT, dir, name)).isFile());
}

/** The folders the layout block of docs/architecture.md names: `src/engine/`, then `  ports/` is `src/engine/ports`. */
function layoutFolders(): string[] {
  const page = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
  const section = page.slice(page.indexOf('## Layout'));
  const open = section.indexOf('```') + 3;
  const block = section.slice(open, section.indexOf('```', open));
  const named: string[] = [];
  // The path at each indentation level (two spaces a level) of the lines read so far.
  const stack: string[] = [];
  for (const line of block.split('\n')) {
    const entry = /^( *)(\S+)\/\s/.exec(line);
    if (!entry) continue;
    const level = (entry[1] as string).length / 2;
    const path = level === 0 ? (entry[2] as string) : `${stack[level - 1]}/${entry[2]}`;
    stack[level] = path;
    stack.length = level + 1;
    named.push(path);
  }
  return named;
}

/** Every function of a TypeScript source (declarations, methods, accessors, arrows, expressions) with its length in lines. */
function functionLengths(fileName: string, text: string): { name: string; lines: number }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; lines: number }[] = [];
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const named =
        (node as ts.FunctionLikeDeclaration).name ??
        (ts.isVariableDeclaration(node.parent) ? node.parent.name : undefined);
      const name = named ? named.getText(source) : `(anonymous, line ${lineOf(node.getStart(source)) + 1})`;
      found.push({ name, lines: lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the house a newcomer reads', () => {
  const rooms = folders('src');

  it('every folder under src/ that holds files has an index.ts, its only door', () => {
    const doorless = rooms.filter((room) => filesIn(room).length > 0 && !filesIn(room).includes('index.ts'));
    expect(doorless).toEqual([]);
  });

  it(`no folder under src/ holds more than ${MAX_FILES_PER_FOLDER} files`, () => {
    const crowded = ['src', ...rooms]
      .map((room) => ({ room, files: filesIn(room).length }))
      .filter(({ files }) => files > MAX_FILES_PER_FOLDER);
    expect(crowded).toEqual([]);
  });

  it('the layout in docs/architecture.md names every folder under src/, and only folders that exist', () => {
    const named = layoutFolders();
    expect(rooms.filter((room) => !named.includes(room))).toEqual([]);
    const missing = named.filter((path) => {
      try {
        return !statSync(join(ROOT, path)).isDirectory();
      } catch {
        return true;
      }
    });
    expect(missing).toEqual([]);
  });

  it(`no function in ${LOOP_ROOMS.join(' or ')} is longer than ${MAX_FUNCTION_LINES} lines`, () => {
    const long = LOOP_ROOMS.flatMap((room) =>
      filesIn(room)
        .filter((name) => name.endsWith('.ts'))
        .flatMap((name) =>
          functionLengths(name, readFileSync(join(ROOT, room, name), 'utf8'))
            .filter(({ lines }) => lines > MAX_FUNCTION_LINES)
            .map(({ name: fn, lines }) => `${room}/${name}: ${fn} (${lines} lines)`),
        ),
    );
    expect(long).toEqual([]);
  });

  it('the function-length check measures what it claims', () => {
    const body = Array.from({ length: 81 }, (_, index) => `  const v${index} = ${index};`).join('\n');
    const lengths = functionLengths(
      'sample.ts',
      `function short() {\n  return 1;\n}\nconst long = async () => {\n${body}\n};\nclass C {\n  m() {\n    return 2;\n  }\n}\n`,
    );
    expect(lengths).toEqual([
      { name: 'short', lines: 3 },
      { name: 'long', lines: 83 },
      { name: 'm', lines: 3 },
    ]);
  });
});
