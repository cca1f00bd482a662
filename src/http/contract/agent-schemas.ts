/**
 * What `GET /api/agents` answers (THR-5): the application's agents with their prompts and the JSON
 * Schemas of the tools the model sees, their MCP servers (LOCK-4), and whether each model can be
 * called (THR-4).
 */
import { z } from '@hono/zod-openapi';

const ToolView = z.object({
  name: z.string(),
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()).describe('The JSON Schema of the arguments, as the model sees it'),
});

const SideView = z.object({
  prompt: z.object({ name: z.string(), model: z.string(), tools: z.array(ToolView) }),
  stopOnResponse: z.boolean(),
  stopTool: z.string().optional(),
  stopToolResponseProperty: z.string().optional(),
  maxSteps: z.number().optional(),
});

const McpServerView = z.object({
  name: z.string(),
  url: z.string().describe('As declared: `{NAME}` placeholders are not filled in'),
  transport: z.enum(['streamable-http', 'sse']),
  headers: z.array(z.string()).describe('The names of the headers sent, never their values'),
  deferred: z.boolean(),
  allowed_tools: z.array(z.string()).optional(),
  connected: z.boolean().describe('Whether a thread of the agent has listed the server'),
  listed_at: z.number().optional(),
  tools: z.array(z.object({ name: z.string(), server_name: z.string(), description: z.string() })).optional(),
});

export const AgentSchema = z
  .object({
    name: z.string(),
    title: z.string(),
    type: z.enum(['ai_human', 'dual_ai']),
    maxSessionTurns: z.number().optional(),
    variables: z.array(
      z.object({
        name: z.string(),
        type: z.enum(['text', 'secret']),
        required: z.boolean(),
        description: z.string(),
      }),
    ),
    sideA: SideView,
    sideB: SideView.optional(),
    mcp_servers: z.array(McpServerView),
  })
  .openapi('Agent');

export const ModelStatusSchema = z
  .object({
    name: z.string(),
    provider: z.enum(['openai', 'anthropic', 'google', 'workers-ai', 'scripted']),
    configured: z.boolean(),
    missing: z.array(z.string()).describe('The variables or bindings to set, when not configured'),
    demo: z.boolean().describe('Answered by the offline demo model (demo mode, not configured)'),
  })
  .openapi('ModelStatus');

export const AgentListSchema = z
  .object({ agents: z.array(AgentSchema), models: z.array(ModelStatusSchema) })
  .openapi('AgentList');
