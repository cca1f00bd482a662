/**
 * Test agents for the specification's file, value, context and tool-invocation members of
 * ThreadState (TS-20..TS-32), driven by a scripted model through HTTP: `fv_fs` performs one file
 * operation named by its arguments and answers with what it came to as JSON; `fv_value`,
 * `fv_context` and `fv_invoke` do the same for values, the turn's context and `invokeTool`. The
 * `fv_files` agent denies reads under `/private/` and writes under `/locked/`.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool, type ThreadState } from '../../src/index.js';

const ALLOW = { permission: '*', pattern: '*', action: 'allow' } as const;

/** JSON a scripted call passes: tool schemas take no `z.unknown()`. */
const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const Json = z.union([Scalar, z.array(Scalar), z.record(z.string(), Scalar)]);

const FsArgs = z.object({
  op: z.enum(['write', 'write_options', 'read', 'stream', 'stat', 'readdir', 'mkdir', 'rmdir', 'stats', 'thumbnail']),
  path: z.string().default('/'),
  text: z.string().default(''),
  repeat: z.number().int().min(0).max(1_000_000).default(1),
  mime: z.string().optional(),
  metadata: Json.optional(),
  thumbnail: z.boolean().default(false),
  chunkSize: z.number().int().optional(),
});
type Fs = z.infer<typeof FsArgs>;

async function streamed(state: ThreadState, input: Fs) {
  const chunks = await state.readFileStream(input.path, input.chunkSize ? { chunkSize: input.chunkSize } : {});
  if (!chunks) return null;
  const seen: { index: number; bytes: number; totalChunks: number; isLast: boolean }[] = [];
  let text = '';
  const decoder = new TextDecoder();
  for await (const chunk of chunks) {
    seen.push({
      index: chunk.index,
      bytes: chunk.data.byteLength,
      totalChunks: chunk.totalChunks,
      isLast: chunk.isLast,
    });
    text += decoder.decode(chunk.data, { stream: !chunk.isLast });
  }
  // The text's length and head: a long result would be cut before the model (and the test) saw it.
  return { chunks: seen, length: text.length, head: text.slice(0, 16) };
}

async function fileOperation(state: ThreadState, input: Fs): Promise<unknown> {
  const data = input.text.repeat(input.repeat);
  const extra = {
    ...(input.metadata !== undefined ? { metadata: input.metadata as Record<string, unknown> } : {}),
    ...(input.thumbnail ? { thumbnail: new ArrayBuffer(4) } : {}),
  };
  switch (input.op) {
    case 'write':
      return state.writeFile(input.path, data, input.mime ?? 'text/plain', extra);
    case 'write_options':
      return state.writeFile(input.path, data, { ...(input.mime ? { mimeType: input.mime } : {}), ...extra });
    case 'read': {
      const buffer = await state.readFile(input.path);
      return buffer && { isArrayBuffer: buffer instanceof ArrayBuffer, text: new TextDecoder().decode(buffer) };
    }
    case 'stream':
      return streamed(state, input);
    case 'stat':
      return state.statFile(input.path);
    case 'readdir':
      return state.readdirFile(input.path);
    case 'mkdir':
      return state.mkdirFile(input.path);
    case 'rmdir':
      return { removed: (await state.rmdirFile(input.path)) === undefined };
    case 'stats':
      return state.getFileStats();
    case 'thumbnail':
      return { thumbnail: await state.getFileThumbnail(input.path) };
  }
}

export const tools = {
  fv_fs: defineTool({
    description: 'Perform one file operation of the thread',
    args: FsArgs,
    execute: async (state, input) => ({ status: 'success', result: JSON.stringify(await fileOperation(state, input)) }),
  }),
  fv_value: defineTool({
    description: 'Get or set a value of the thread',
    args: z.object({ key: z.string(), set: z.boolean().default(false), value: Json.optional() }),
    execute: async (state, input) => {
      if (input.set) await state.setValue(input.key, input.value);
      const value = await state.getValue(input.key);
      return { status: 'success', result: JSON.stringify({ value, isNull: value === null }) };
    },
  }),
  fv_context: defineTool({
    description: 'Read and write the turn context',
    args: z.object({ key: z.string(), value: Json.optional(), assign: z.boolean().default(false) }),
    execute: async (state, input) => {
      if (input.assign) state.context = { [input.key]: input.value };
      else if (input.value !== undefined) state.context[input.key] = input.value;
      return {
        status: 'success',
        result: JSON.stringify({
          value: state.context[input.key] ?? null,
          keys: Object.keys(state.context),
          local: state.context.local,
          shared: state.context.shared,
          polluted: ({} as Record<string, unknown>).polluted ?? null,
          inherited: state.context.polluted ?? null,
          runtime: state._notPackableRuntimeContext ?? null,
        }),
      };
    },
  }),
  fv_invoke: defineTool({
    description: 'Invoke another tool and show its outcome',
    args: z.object({ name: z.string(), args: z.record(z.string(), Scalar).default({}) }),
    execute: async (state, input) => ({
      status: 'success',
      result: JSON.stringify(await state.invokeTool(input.name, input.args)),
    }),
  }),
  fv_fail: defineTool({
    description: 'Fail as a full disk does',
    execute: async () => ({ status: 'error', error: 'the disk is full' }),
  }),
};

const toolNames = Object.keys(tools);

export const prompts = [definePrompt({ name: 'fv_files', prompt: '', model: 'scripted', tools: toolNames })];

export const agents = [
  defineAgent({
    name: 'fv_files',
    sideA: { prompt: 'fv_files' },
    permissions: [
      ALLOW,
      { permission: 'fs.read', pattern: '/private/*', action: 'deny' },
      { permission: 'fs.write', pattern: '/locked/*', action: 'deny' },
    ],
  }),
];
