/**
 * The example application: every definition the Worker serves. A tool's name is its key here.
 */
import assistantAgent from './agents/assistant';
import brainstormAgent from './agents/brainstorm';
import workspaceAgent from './agents/workspace';
import defaultModel from './models/default';
import assistantPrompt from './prompts/assistant';
import { critic, proposer } from './prompts/brainstorm';
import summarizePrompt from './prompts/summarize';
import workspacePrompt from './prompts/workspace';
import codeReview from './skills/code-review';
import fetch_data from './tools/fetch_data';
import get_current_time from './tools/get_current_time';
import search_knowledge_base from './tools/search_knowledge_base';

export const tools = { get_current_time, search_knowledge_base, fetch_data };
export const prompts = [assistantPrompt, workspacePrompt, summarizePrompt, proposer, critic];
export const agents = [assistantAgent, workspaceAgent, brainstormAgent];
export const models = [defaultModel];
export const skills = [codeReview];
