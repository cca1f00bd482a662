/**
 * An example suite for the example application (agents/), written for the offline demo model, which
 * calls the tools a message names with the JSON arguments written after the name and then reports
 * what they returned; so every answer here is known in advance. Run it with
 * `npm run eval -- evals/example.eval.ts`. Each assertion kind is used at least once.
 */
import { defineEvalSuite, type EvalLog } from './runner/suite.js';

/** The tool messages of the log, for the custom checks below. */
const toolMessages = (log: EvalLog) => log.messages.filter((message) => message.role === 'tool');

export default defineEvalSuite({
  cases: [
    {
      name: 'knowledge base search',
      agent: 'assistant',
      messages: ['search_knowledge_base {"query":"durable objects"}'],
      assertions: [
        { kind: 'tool_called', tool: 'search_knowledge_base', args: { query: 'durable objects' } },
        { kind: 'tool_not_called', tool: 'fetch_data' },
        { kind: 'contains', text: 'Every thread is a Durable Object' },
        {
          kind: 'json_schema',
          schema: {
            type: 'array',
            minItems: 1,
            items: {
              type: 'object',
              required: ['title', 'body'],
              properties: { title: { type: 'string' }, body: { type: 'string' } },
            },
          },
        },
      ],
    },
    {
      name: 'current time',
      agent: 'assistant',
      messages: ['What does get_current_time say?'],
      assertions: [
        { kind: 'tool_called', tool: 'get_current_time' },
        { kind: 'matches', pattern: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/ },
      ],
    },
    {
      name: 'small talk calls no tool',
      agent: 'assistant',
      messages: ['Hello there'],
      assertions: [
        { kind: 'tool_not_called', tool: 'get_current_time' },
        { kind: 'tool_not_called', tool: 'search_knowledge_base' },
        { kind: 'matches', pattern: 'you said: "hello there"', flags: 'i' },
        {
          kind: 'custom',
          name: 'one answer, no tool message',
          check: (log) => toolMessages(log).length === 0 || `${toolMessages(log).length} tool messages`,
        },
      ],
    },
    {
      name: 'a request that needs a person is refused',
      agent: 'assistant',
      // fetch_data asks a person first (agents/agents/assistant.ts); nobody answers an eval's thread.
      messages: ['fetch_data {"endpoint":"https://example.com/data.json"}'],
      assertions: [
        { kind: 'tool_called', tool: 'fetch_data', args: { endpoint: 'https://example.com/data.json' } },
        {
          kind: 'custom',
          name: 'the call failed without running',
          check: (log) => {
            const result = log.toolCalls.find((call) => call.name === 'fetch_data')?.result;
            return result?.tool_status === 'error' || `its result was ${JSON.stringify(result?.tool_status ?? null)}`;
          },
        },
      ],
    },
    {
      name: 'two turns in one thread',
      agent: 'assistant',
      messages: ['search_knowledge_base {"query":"streaming frames"}', 'Now get_current_time please'],
      assertions: [
        { kind: 'tool_called', tool: 'search_knowledge_base', args: { query: 'streaming frames' } },
        { kind: 'tool_called', tool: 'get_current_time' },
        { kind: 'contains', text: 'here is what the tools returned', ignoreCase: true },
        {
          kind: 'custom',
          name: 'each turn answered in order',
          check: (log) => {
            const order = log.toolCalls.map((call) => call.name).join(', ');
            return order === 'search_knowledge_base, get_current_time' || `calls were ${order}`;
          },
        },
      ],
    },
  ],
});
