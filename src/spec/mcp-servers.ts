/**
 * MCP servers an agent or a prompt uses (LOCK-4, KIND-8): each server's tools become tools of the
 * thread, named `<server>__<tool>`, under the same contract as every other tool. The declaration is
 * checked here; connecting, listing and calling happen in the runtime.
 */
import { DefinitionError } from './definition-error.js';

export type McpTransport = 'streamable-http' | 'sse';

export interface McpServerConfig {
  /** The server's endpoint; `{NAME}` takes the thread's value of the variable NAME. */
  url: string;
  /** `streamable-http` (the default) or `sse` for servers that predate it. */
  transport?: McpTransport;
  /**
   * Request headers. `{NAME}` takes a variable's value, and a header carrying one must name a
   * `secret` variable: credentials never sit in code or reach the model.
   */
  headers?: Record<string, string>;
  /** Only these tools of the server are offered (by the server's names); default all. */
  tools?: string[];
  /** Offered by name alone until `tool_search` loads them (KIND-8): for servers with many tools. */
  deferred?: boolean;
  /** Mark the tools' results as outside data, not instructions, for the model (INJ-1). Default true. */
  untrustedOutput?: boolean;
  /** Milliseconds one call may take (seed 002: 60 s), beside the executor's own minute. */
  timeout?: number;
  /** Ask a human before every call of this server's tools (KIND-5). */
  requireApproval?: boolean;
  /** For a server that requires OAuth: what the client registers and asks for. */
  oauth?: { scopes?: string[]; clientName?: string };
}

/** A server's name is the prefix of its tools' names, so it must fit a tool name. */
const SERVER_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,29}$/;
const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;
export const DEFAULT_MCP_TIMEOUT_MS = 60_000;
const MAX_MCP_TIMEOUT_MS = 600_000;

/** The variable names a template refers to with `{NAME}`. */
export function placeholders(template: string): string[] {
  return [...template.matchAll(PLACEHOLDER)].map((match) => match[1] as string);
}

/** A template with each `{NAME}` replaced by its value; a name without one is left for the caller to refuse. */
export function fillPlaceholders(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => values[name] ?? whole);
}

function checkServer(where: string, name: string, config: McpServerConfig): McpServerConfig {
  const label = `${where}: MCP server "${name}"`;
  if (!SERVER_NAME.test(name)) {
    throw new DefinitionError(
      `${label}: the name must start with a letter and hold at most 30 letters, digits, "_" or "-"`,
    );
  }
  if (typeof config?.url !== 'string' || config.url.trim() === '') {
    throw new DefinitionError(`${label}: url must be a non-empty string`);
  }
  // A url made of variables is checked once a thread fills it in.
  if (placeholders(config.url).length === 0) {
    let url: URL;
    try {
      url = new URL(config.url);
    } catch {
      throw new DefinitionError(`${label}: url "${config.url}" is not a URL`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new DefinitionError(`${label}: url must be http or https`);
    }
  }
  const transport = config.transport ?? 'streamable-http';
  if (transport !== 'streamable-http' && transport !== 'sse') {
    throw new DefinitionError(`${label}: transport must be "streamable-http" or "sse"`);
  }
  for (const [header, value] of Object.entries(config.headers ?? {})) {
    if (typeof value !== 'string') throw new DefinitionError(`${label}: header "${header}" must be a string`);
  }
  if (
    config.tools !== undefined &&
    !(Array.isArray(config.tools) && config.tools.every((t) => typeof t === 'string'))
  ) {
    throw new DefinitionError(`${label}: tools must be a list of tool names`);
  }
  const timeout = config.timeout ?? DEFAULT_MCP_TIMEOUT_MS;
  if (!(Number.isInteger(timeout) && timeout > 0 && timeout <= MAX_MCP_TIMEOUT_MS)) {
    throw new DefinitionError(`${label}: timeout must be a whole number of milliseconds up to ${MAX_MCP_TIMEOUT_MS}`);
  }
  return { ...config, transport, timeout };
}

/** The servers of a definition, checked; `where` names the definition in errors. */
export function checkMcpServers(
  where: string,
  servers: Readonly<Record<string, McpServerConfig>> | undefined,
): Record<string, McpServerConfig> {
  const checked: Record<string, McpServerConfig> = {};
  for (const [name, config] of Object.entries(servers ?? {})) checked[name] = checkServer(where, name, config);
  return checked;
}
