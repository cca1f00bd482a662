/**
 * Tools that finish through an interaction instead of a server-side body of their own: the base,
 * `defineInteractiveTool` (a question, a subagent), and the two whose output comes from outside the
 * Worker, client tools (KIND-3) and human-in-the-loop tools (KIND-4). The thread waits, stored, until
 * the answer arrives (`POST /api/threads/:id/tool-results` for the last two).
 */
import type { z } from 'zod';
import { type DefineToolOptions, defineTool, type ToolArgs, type ToolDefinition } from './define-tool.js';
import { DefinitionError, toolDefinitionLabel } from './definition-error.js';
import type { ThreadState, ToolInteraction, ToolResult } from './types/index.js';
import { describeIssues } from './zod-issues.js';

export type DefineInteractiveToolOptions<Args extends ToolArgs | null> = Omit<
  DefineToolOptions<Args>,
  'execute' | 'interaction' | 'outputSchema'
> & {
  interaction: ToolInteraction<Args extends ToolArgs ? z.infer<Args> : undefined>;
};

export function defineInteractiveTool<Args extends ToolArgs | null = null>(
  options: DefineInteractiveToolOptions<Args>,
): ToolDefinition<Args> {
  return defineTool<Args>({
    ...options,
    // Never called: the executor runs `interaction.begin` and `interaction.complete` instead.
    execute: (async (): Promise<ToolResult> => ({
      status: 'error',
      error: 'this tool finishes through its interaction',
    })) as unknown as DefineToolOptions<Args>['execute'],
  });
}

type ArgsOf<Args extends ToolArgs | null> = Args extends ToolArgs ? z.infer<Args> : undefined;
type Common<Args extends ToolArgs | null> = Omit<DefineToolOptions<Args>, 'execute' | 'interaction' | 'outputSchema'>;

function validated(name: string, schema: z.ZodType | undefined, value: unknown): ToolResult {
  if (schema) {
    const checked = schema.safeParse(value);
    if (!checked.success) {
      return {
        status: 'error',
        error: `The output of ${name} does not match its output schema: ${describeIssues(checked.error)}`,
      };
    }
    value = checked.data;
  }
  return { status: 'success', result: typeof value === 'string' ? value : JSON.stringify(value) };
}

export type DefineClientToolOptions<Args extends ToolArgs | null> = Common<Args> & {
  /** Checked when the client posts the output; a mismatch is refused with 400. */
  outputSchema?: z.ZodType;
};

export type ClientToolDefinition<Args extends ToolArgs | null> = Omit<ToolDefinition<Args>, 'outputSchema'> & {
  outputSchema: z.ZodType | undefined;
};

/** A tool the client runs (KIND-3): the call is shown to the client, whose output is the result. */
export function defineClientTool<Args extends ToolArgs | null = null>(
  options: DefineClientToolOptions<Args>,
): ClientToolDefinition<Args> {
  const definition = defineInteractiveTool<Args>({
    ...options,
    interaction: {
      begin: async (_state, args) => ({ kind: 'client_tool', payload: { arguments: args ?? {} } }),
      complete: async (_state, _args, output) => validated('this client tool', options.outputSchema, output),
    },
  });
  return { ...definition, outputSchema: options.outputSchema };
}

export type DefineHitlToolOptions<Args extends ToolArgs | null> = Common<Args> & {
  /** Required (KIND-4): validates both a value from `onToolCalled` and the client's output. */
  outputSchema: z.ZodType;
  /** A value answers the call at once; `null` waits for a human (status `awaiting_hitl`). */
  onToolCalled(args: ArgsOf<Args>, state: ThreadState): unknown | Promise<unknown>;
  /** Turns the client's raw output into the value sent to the model; throwing makes a tool error. */
  onResponseReceived?(output: unknown, args: ArgsOf<Args>, state: ThreadState): unknown | Promise<unknown>;
};

/** A human-in-the-loop tool (KIND-4): decides per call whether to answer itself or ask a human. */
export function defineHitlTool<Args extends ToolArgs | null = null>(
  options: DefineHitlToolOptions<Args>,
): ClientToolDefinition<Args> {
  if (!options.outputSchema) {
    throw new DefinitionError(
      `${toolDefinitionLabel('defineHitlTool', options.description)}: outputSchema is required`,
    );
  }
  const definition = defineInteractiveTool<Args>({
    ...options,
    interaction: {
      begin: async (state, args) => {
        const value = await options.onToolCalled(args, state);
        if (value !== null && value !== undefined) return validated('this tool', options.outputSchema, value);
        return { kind: 'hitl', payload: { arguments: args ?? {} } };
      },
      complete: async (state, args, output) => {
        const value = options.onResponseReceived ? await options.onResponseReceived(output, args, state) : output;
        return validated('this tool', options.outputSchema, value);
      },
    },
  });
  // The client's output is checked in `complete`, after onResponseReceived: not at the HTTP call.
  return { ...definition, outputSchema: undefined };
}
