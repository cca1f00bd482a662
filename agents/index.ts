/**
 * The example application: every definition the Worker serves. A tool's name is its key here.
 */
import assistantAgent from './agents/assistant';
import defaultModel from './models/default';
import assistantPrompt from './prompts/assistant';
import fetch_data from './tools/fetch_data';
import get_current_time from './tools/get_current_time';
import search_knowledge_base from './tools/search_knowledge_base';

export const tools = { get_current_time, search_knowledge_base, fetch_data };
export const prompts = [assistantPrompt];
export const agents = [assistantAgent];
export const models = [defaultModel];
