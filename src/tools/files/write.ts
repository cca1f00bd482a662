/**
 * `write` (LOCK-1, seed 003): creates a file of the thread filesystem, or overwrites it whole, with
 * the given text. The answer names the normalised path and the bytes written, so the model knows
 * where the file landed.
 */
import { z } from 'zod';
import { defineTool } from '../../spec/index.js';

const args = z.object({
  path: z.string().min(1).describe('The file to write, e.g. "/notes/todo.md"; missing folders are implied'),
  content: z.string().describe('The whole new content of the file'),
});

export const write = defineTool({
  description: 'Create or overwrite a file of the thread filesystem with the given text',
  args,
  acpKind: 'edit',
  requires: { fs: { write: ['{workspace}/**'] } },
  access: (input) => ({ write: [input.path], subject: input.path }),
  execute: async (state, input) => {
    const existed = (await state.statFile(input.path))?.isDirectory === false;
    const ref = await state.writeFile(input.path, input.content);
    return { status: 'success', result: `${existed ? 'Overwrote' : 'Created'} ${ref.path} (${ref.size} bytes)` };
  },
});
