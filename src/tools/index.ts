/**
 * The built-in tools, registered under their locked ids (LOCK-1). A prompt offers one by listing its
 * id in `tools`, exactly like an application tool; an application tool may not reuse an id.
 */
import type { AnyToolDefinition } from '../spec/index.js';
import { bash } from './bash.js';
import { edit } from './edit.js';
import { glob } from './glob.js';
import { grep } from './grep.js';
import { question } from './question.js';
import { read } from './read.js';
import { task } from './task.js';
import { todo } from './todo.js';
import { webFetch } from './web-fetch.js';
import { webSearch } from './web-search.js';
import { write } from './write.js';

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
};
