/**
 * Which MCP servers a thread's prompts use (LOCK-4), and the startup check of their `{NAME}`
 * placeholders: each must name a variable the agent's threads declare, and a header may only carry
 * `secret` ones (VAR-3), so a credential is never written in code nor shown to a model.
 */
import type { AgentDefinition, McpServerConfig, PromptDefinition, VariableDefinition } from '../../spec/index.js';
import { DefinitionError, placeholders } from '../../spec/internal.js';

/** The servers of one side's prompt: the agent's, and the prompt's own (which win by name). */
export function mcpServersOf(agent: AgentDefinition, prompt: PromptDefinition): Record<string, McpServerConfig> {
  return { ...agent.mcpServers, ...prompt.mcpServers };
}

/** Every server an agent's threads may use, by name: its own and its prompts'. */
export function agentMcpServers(
  agent: AgentDefinition,
  prompts: readonly PromptDefinition[],
): Record<string, McpServerConfig> {
  return Object.assign({}, ...prompts.map((prompt) => mcpServersOf(agent, prompt)));
}

export function checkMcpPlaceholders(
  agent: AgentDefinition,
  servers: Readonly<Record<string, McpServerConfig>>,
  variables: readonly VariableDefinition[],
): void {
  const byName = new Map(variables.map((variable) => [variable.name, variable]));
  for (const [server, config] of Object.entries(servers)) {
    const where = `agent "${agent.name}": MCP server "${server}"`;
    for (const name of placeholders(config.url)) {
      if (!byName.has(name)) throw new DefinitionError(`${where}: its url uses {${name}}, which no variable declares`);
    }
    for (const [header, value] of Object.entries(config.headers ?? {})) {
      for (const name of placeholders(value)) {
        if (byName.get(name)?.type !== 'secret') {
          throw new DefinitionError(
            `${where}: header "${header}" uses {${name}}, which must be declared as a secret variable`,
          );
        }
      }
    }
  }
}
