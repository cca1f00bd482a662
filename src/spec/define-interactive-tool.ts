/**
 * `defineInteractiveTool`: a tool that has no server-side body of its own and finishes through an
 * interaction — a question, a client tool (KIND-3), a human-in-the-loop tool (KIND-4).
 */
import type { z } from 'zod';
import { type DefineToolOptions, defineTool, type ToolArgs, type ToolDefinition } from './define-tool.js';
import type { ToolInteraction } from './interaction.js';
import type { ToolResult } from './types.js';

export type DefineInteractiveToolOptions<Args extends ToolArgs | null> = Omit<
  DefineToolOptions<Args>,
  'execute' | 'interaction'
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
