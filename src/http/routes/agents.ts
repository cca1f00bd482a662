/**
 * `GET /api/agents`: what the Worker serves — agents, their prompts and the tools each prompt may
 * call, with the JSON Schemas the model receives, each agent's MCP servers with the tools the
 * newest listing by one of its threads found (LOCK-4) — and its models, each with whether it can be
 * called here or which variables or bindings it still needs (THR-4).
 */
import { createRoute } from '@hono/zod-openapi';
import type { Registry } from '../../engine/registry/index.js';
import { modelStatus } from '../../providers/index.js';
import type { AgentDefinition } from '../../spec/index.js';
import { type McpListing, ThreadIndex } from '../../thread/bindings/index.js';
import { AgentListSchema, AUTH_FAILURES, json, routeApp } from '../contract/index.js';

const listAgents = createRoute({
  method: 'get',
  path: '/',
  operationId: 'listAgents',
  tags: ['agents'],
  summary: 'The agents, their prompts and tools with the JSON Schemas the model sees, and the models',
  responses: { 200: json(AgentListSchema, 'The agents and models'), ...AUTH_FAILURES },
});

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

/** The agent's MCP servers as declared (never a header value), with the tools last listed. */
function describeMcpServers(registry: Registry, agent: AgentDefinition, listings: Map<string, McpListing> | undefined) {
  return Object.entries(registry.mcpServersFor(agent)).map(([name, config]) => {
    const listing = listings?.get(name);
    const allowed = config.tools ? new Set(config.tools) : null;
    return {
      name,
      url: config.url,
      transport: config.transport ?? 'streamable-http',
      headers: Object.keys(config.headers ?? {}),
      deferred: config.deferred ?? false,
      ...(config.tools ? { allowed_tools: config.tools } : {}),
      connected: listing !== undefined,
      ...(listing
        ? {
            listed_at: listing.listed_at,
            tools: listing.tools.filter((tool) => !allowed || allowed.has(tool.server_name)),
          }
        : {}),
    };
  });
}

export function agentRoutes(registry: Registry) {
  const app = routeApp();
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
  const withServers = [...registry.agents.values()].filter(
    (agent) => Object.keys(registry.mcpServersFor(agent)).length > 0,
  );
  // Configuration comes from the env, which a request brings; listings from the thread index.
  app.openapi(listAgents, async (c) => {
    const listings = withServers.length > 0 ? await new ThreadIndex(c.env.DB).mcpListings() : new Map();
    return c.json(
      {
        agents: body.agents.map((agent) => {
          const definition = registry.agent(agent.name) as AgentDefinition;
          return { ...agent, mcp_servers: describeMcpServers(registry, definition, listings.get(agent.name)) };
        }),
        models: [...registry.models.values()].map((model) => modelStatus(model, c.env)),
      },
      200,
    );
  });
  return app;
}
