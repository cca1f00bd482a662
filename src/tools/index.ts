/**
 * The built-in tools, registered under their locked ids (LOCK-1), plus `store_secret` (VAR-5). A
 * prompt offers one by listing its id in `tools`, exactly like an application tool; an application
 * tool may not reuse an id.
 */
import type { SearchableTool } from '../engine/registry/deferred-tools.js';
import type { SkillDefinition } from '../spec/define-skill.js';
import type { AnyToolDefinition } from '../spec/index.js';
import { bash } from './bash/bash.js';
import { edit } from './files/edit.js';
import { glob } from './files/glob.js';
import { grep } from './files/grep.js';
import { read } from './files/read.js';
import { write } from './files/write.js';
import { question } from './session/question.js';
import { skillTool } from './session/skill.js';
import { STORE_SECRET_TOOL, storeSecret } from './session/store-secret.js';
import { todo } from './session/todo.js';
import { toolSearchTool } from './session/tool-search.js';
import { task } from './subagents/task.js';
import { webFetch } from './web-fetch/web-fetch.js';
import { webSearch } from './web-search/web-search.js';

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
