/**
 * Test agent for the Workers AI provider (THR-4): `workers_ai` runs on a `workers-ai` model whose
 * binding is `AI_STUB`, a stub of `env.AI` (harness/workers-ai-stub.mjs) that the test Worker's
 * Thread class adds to the env the platform gives it. No other model uses that binding. Each test
 * scripts the stub in its own user message (`workersAiDirective`): reply N answers the Nth run since
 * that message, so threads never share state. Every run is recorded; tests find theirs by the
 * directive's nonce.
 */
import { z } from 'zod';
import { type AnswerReply, createWorkersAIStub, type StubReply } from '../../harness/workers-ai-stub.mjs';
import { defineAgent, defineModel, definePrompt, defineTool } from '../../src/index.js';

export const STUB_BINDING = 'AI_STUB';
export const STUB_MODEL_ID = '@cf/meta/llama-3.3-70b-instruct-fp8-fast';

interface Directive {
  workersAi: StubReply[];
  nonce: string;
}

/** A user message scripting the stub's replies; `nonce` tells this test's runs apart from others'. */
export function workersAiDirective(replies: StubReply[], nonce: string): string {
  return JSON.stringify({ workersAi: replies, nonce } satisfies Directive);
}

function directedReply(inputs: Record<string, unknown>): StubReply {
  const messages = (Array.isArray(inputs.messages) ? inputs.messages : []) as { role?: string; content?: unknown }[];
  let runs = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'assistant') runs++;
    if (message?.role !== 'user' || typeof message.content !== 'string') continue;
    if (!message.content.startsWith('{"workersAi"')) break;
    const { workersAi } = JSON.parse(message.content) as Directive;
    return workersAi[runs] ?? ({ text: 'script finished' } satisfies AnswerReply);
  }
  return { text: 'no Workers AI directive' };
}

export const stub = createWorkersAIStub({ respond: directedReply });

/** The env a thread of the test Worker receives, with the stub under its binding name. */
export function withStubBinding<Env extends object>(env: Env): Env {
  return { ...env, [STUB_BINDING]: stub };
}

export const tools = {
  wai_weather: defineTool({
    description: 'The weather in a city',
    args: z.object({ city: z.string().describe('City name') }),
    execute: async (_state, args) => ({ status: 'success', result: `Sunny in ${args.city}` }),
  }),
};

export const models = [
  defineModel({ name: 'workers_ai_stub', provider: 'workers-ai', model: STUB_MODEL_ID, binding: STUB_BINDING }),
];

export const prompts = [
  definePrompt({
    name: 'workers_ai',
    prompt: 'You answer through Workers AI.',
    model: 'workers_ai_stub',
    tools: ['wai_weather'],
  }),
];

export const agents = [
  defineAgent({
    name: 'workers_ai',
    sideA: { prompt: 'workers_ai' },
    permissions: [{ permission: '*', pattern: '*', action: 'allow' }],
  }),
];
