/**
 * Definitions of the conformance suite, served by the test Worker beside its own agents. Every name
 * here is prefixed so it cannot collide with test/workers/worker.ts.
 */
import type { AgentDefinition, AnyToolDefinition, PromptDefinition } from '@standardagents/spec';

export const tools: Record<string, AnyToolDefinition> = {};
export const prompts: PromptDefinition[] = [];
export const agents: AgentDefinition[] = [];
