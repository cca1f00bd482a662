/**
 * Definitions of the conformance suite, served by the test Worker beside its own agents. Every name
 * here is prefixed so it cannot collide with test/workers/worker.ts.
 *
 * - `conf_seed` runs the five examples of seed 001 section 11, imported as they stand (DEF-5).
 * - `conf_lab` runs the probes of the other requirement files (DEF-2, EXE-4, ATT-1..ATT-3).
 */
import {
  type AgentDefinition,
  type AnyToolDefinition,
  defineAgent,
  definePrompt,
  defineTool,
  type PromptDefinition,
  type ToolResult,
} from '@standardagents/spec';
import { z } from 'zod';
import searchKnowledgeBase from './seed-examples/11-1-basic-tool-with-arguments.js';
import getTime from './seed-examples/11-2-tool-without-arguments.js';
import fetchData from './seed-examples/11-3-tool-with-error-handling.js';
import generateImage from './seed-examples/11-4-tool-with-attachments.js';
import searchFiles from './seed-examples/11-5-tool-with-thread-environment-variables.js';

/** One field of every Zod type seed 001 section 3.2 allows (DEF-2). */
export const allTypesArgs = z.object({
  text: z.string().describe('Free text'),
  count: z.number().describe('A number'),
  flag: z.boolean().describe('A switch'),
  nothing: z.null().describe('Always null'),
  kind: z.literal('fixed').describe('Always "fixed"'),
  color: z.enum(['red', 'green', 'blue']).describe('A colour'),
  note: z.string().optional().describe('An optional note'),
  maybe: z.number().nullable().describe('A number or null'),
  size: z.number().default(3).describe('A size, 3 unless given'),
  tags: z.array(z.string()).describe('Labels'),
  point: z.object({ x: z.number(), y: z.number() }).describe('A point'),
  scores: z.record(z.string(), z.number()).describe('Scores by name'),
  id: z.union([z.string(), z.number()]).describe('A name or a number'),
});

/**
 * Seven levels deep as src/spec/schema.ts counts them (each object, array and record is a level):
 * object → object → array → object → record → object → object.
 */
export const deepArgs = z
  .object({
    level2: z
      .object({
        level3: z
          .array(
            z
              .object({
                level5: z
                  .record(
                    z.string(),
                    z
                      .object({
                        level7: z
                          .object({
                            value: z.number().describe('Depth 7 value'),
                            unit: z.enum(['mm', 'cm']).default('mm').describe('Depth 7 unit'),
                          })
                          .describe('Depth 7 object'),
                      })
                      .describe('Depth 6 object'),
                  )
                  .describe('Depth 5 record'),
              })
              .describe('Depth 4 object'),
          )
          .describe('Depth 3 array'),
      })
      .describe('Depth 2 object'),
  })
  .describe('Depth 1 object');

const attachmentRefArg = z.object({
  id: z.string(),
  type: z.literal('file'),
  path: z.string(),
  name: z.string(),
  mimeType: z.string(),
  size: z.number(),
  width: z.number().optional(),
  height: z.number().optional(),
  description: z.string().optional(),
});

const newAttachmentArg = z.object({
  name: z.string(),
  mimeType: z.string(),
  data: z.string().describe('Base64-encoded bytes'),
  width: z.number().optional(),
  height: z.number().optional(),
});

export const tools: Record<string, AnyToolDefinition> = {
  // Seed 001 section 11, as they stand.
  conf_search_knowledge_base: searchKnowledgeBase,
  conf_get_time: getTime,
  conf_fetch_data: fetchData,
  conf_generate_image: generateImage,
  conf_search_files: searchFiles,

  conf_all_types: defineTool({
    description: 'Echo arguments of every allowed argument type as JSON',
    args: allTypesArgs,
    execute: async (_state, args) => ({ status: 'success', result: JSON.stringify(args) }),
  }),
  conf_deep: defineTool({
    description: 'Echo arguments nested seven levels deep as JSON',
    args: deepArgs,
    execute: async (_state, args) => ({ status: 'success', result: JSON.stringify(args) }),
  }),
  conf_return_result: defineTool({
    description: 'Return the tool result described by the arguments',
    args: z.object({
      status: z.enum(['success', 'error']),
      result: z.string().optional(),
      error: z.string().optional(),
      stack: z.string().optional(),
      attachments: z.array(z.union([attachmentRefArg, newAttachmentArg])).optional(),
    }),
    execute: async (_state, args) => args as ToolResult,
  }),
  conf_file_probe: defineTool({
    description: 'Read or write one file of the thread filesystem',
    args: z.object({
      op: z.enum(['read', 'write']),
      path: z.string(),
      text: z.string().default('probe').describe('What a write stores'),
    }),
    execute: async (state, args) => {
      if (args.op === 'write') {
        const ref = await state.writeFile(args.path, args.text);
        return { status: 'success', result: JSON.stringify({ written: ref.path }) };
      }
      const bytes = await state.readFile(args.path);
      return bytes === null
        ? { status: 'success', result: JSON.stringify({ found: false }) }
        : { status: 'success', result: JSON.stringify({ found: true, text: new TextDecoder().decode(bytes) }) };
    },
  }),
};

export const prompts: PromptDefinition[] = [
  definePrompt({
    name: 'conf_seed',
    prompt: 'You run the examples of seed 001.',
    model: 'scripted',
    tools: [
      'conf_search_knowledge_base',
      'conf_get_time',
      'conf_fetch_data',
      'conf_generate_image',
      'conf_search_files',
    ],
  }),
  definePrompt({
    name: 'conf_lab',
    prompt: 'You run conformance probes.',
    model: 'scripted',
    tools: ['conf_all_types', 'conf_deep', 'conf_return_result', 'conf_file_probe'],
  }),
];

export const agents: AgentDefinition[] = [
  defineAgent({ name: 'conf_seed', sideA: { prompt: 'conf_seed' } }),
  defineAgent({ name: 'conf_lab', sideA: { prompt: 'conf_lab' } }),
];
