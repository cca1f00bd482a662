/**
 * Test agent for the egress policy: `egress` offers web_fetch, web_search and
 * `fetch_status`, a user tool that fetches through `state.fetch` as tool authors are told to. Its
 * manifest allows every call, so what refuses a URL in these tests is the egress policy alone.
 */
import { z } from 'zod';
import { defineAgent, definePrompt, defineTool, EgressRefused } from '../../src/index.js';

export const tools = {
  fetch_status: defineTool({
    description: 'Fetch a URL and report its HTTP status and first bytes',
    args: z.object({ url: z.string().describe('The URL to fetch') }),
    requires: { net: { hosts: ['*'] } },
    execute: async (state, args) => {
      try {
        const response = await state.fetch(args.url);
        return { status: 'success', result: `HTTP ${response.status}: ${(await response.text()).slice(0, 100)}` };
      } catch (error) {
        if (error instanceof EgressRefused) return { status: 'error', error: `refused: ${error.message}` };
        throw error;
      }
    },
  }),
};

export const prompts = [
  definePrompt({
    name: 'egress',
    prompt: '',
    model: 'scripted',
    tools: ['web_fetch', 'web_search', 'fetch_status'],
  }),
];

export const agents = [
  defineAgent({
    name: 'egress',
    sideA: { prompt: 'egress' },
    permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
  }),
];
