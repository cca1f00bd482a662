/**
 * `GET /api/agents`: what the Worker serves — agents, their prompts and the tools each prompt may
 * call, with the JSON Schemas the model receives — and its models, each with whether it can be
 * called here or which variables or bindings it still needs (THR-4).
 */
import { Hono } from 'hono';
import type { Registry } from '../../engine/registry/index.js';
import { modelStatus } from '../../providers/index.js';
import type { HttpEnv } from '../contract/index.js';

function describePrompt(registry: Registry, name: string) {
  const prompt = registry.prompt(name);
  return {
    name: prompt.name,
    model: prompt.model,
    tools: registry.toolsFor(prompt.name).map((tool) => ({
      name: tool.name,
      description: tool.definition.description,
      parameters: tool.parameters,
    })),
  };
}

export function agentRoutes(registry: Registry) {
  const app = new Hono<HttpEnv>();
  const body = {
    agents: [...registry.agents.values()].map((agent) => ({
      name: agent.name,
      title: agent.title,
      type: agent.type,
      ...(agent.maxSessionTurns ? { maxSessionTurns: agent.maxSessionTurns } : {}),
      variables: registry.variablesFor(agent).map(({ name, type, required, description }) => ({
        name,
        type,
        required,
        description,
      })),
      sideA: { ...agent.sideA, prompt: describePrompt(registry, agent.sideA.prompt) },
      ...(agent.sideB ? { sideB: { ...agent.sideB, prompt: describePrompt(registry, agent.sideB.prompt) } } : {}),
    })),
  };
  // Configuration comes from the env, which a request brings.
  app.get('/', (c) =>
    c.json({ ...body, models: [...registry.models.values()].map((model) => modelStatus(model, c.env)) }),
  );
  return app;
}
