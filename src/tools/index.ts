/**
 * The built-in tools, registered under their locked ids (LOCK-1), plus `store_secret` (VAR-5). A
 * prompt offers one by listing its id in `tools`, exactly like an application tool; an application
 * tool may not reuse an id.
 */
import type { SearchableTool } from '../engine/registry/index.js';
import type { AnyToolDefinition, SkillDefinition } from '../spec/index.js';
import { bash } from './bash/index.js';
import { edit, glob, grep, read, write } from './files/index.js';
import { RUN_CODE_TOOL, runCode } from './run-code/index.js';
import { question, STORE_SECRET_TOOL, skillTool, storeSecret, todo, toolSearchTool } from './session/index.js';
import { task } from './subagents/index.js';
import { webFetch } from './web-fetch/index.js';
import { webSearch } from './web-search/index.js';

/** The tools that need no application data. */
export const builtinTools: Readonly<Record<string, AnyToolDefinition>> = {
  question,
  read,
  write,
  edit,
  glob,
  grep,
  bash,
  todo,
  task,
  web_search: webSearch,
  web_fetch: webFetch,
  // VAR-5: not a locked id; the registry offers it to every prompt with a secret variable.
  [STORE_SECRET_TOOL]: storeSecret,
  // CODE-1: not a locked id; a prompt offers it by listing it.
  [RUN_CODE_TOOL]: runCode,
};

/**
 * The whole locked set (LOCK-1) for an application: the fixed tools plus `skill` over its skills and
 * `tool_search` over its deferred tools (LOCK-4).
 */
export function lockedTools(
  skills: readonly SkillDefinition[],
  deferred: () => readonly SearchableTool[],
): Record<string, AnyToolDefinition> {
  return { ...builtinTools, skill: skillTool(skills), tool_search: toolSearchTool(deferred) };
}
