/**
 * The system text a prompt sends: its own prompt, then the one-line descriptions of the skills the
 * `skill` tool can load (LOCK-4), the names of deferred tools `tool_search` can load (KIND-8), the
 * credential routine where `store_secret` is offered (CRED-1), and
 * when `run_code` is offered, the declarations of the tools its programs can call (CODE-1).
 */
import type { PromptDefinition, SkillDefinition } from '../../spec/index.js';
import type { ResolvedTool } from '../registry/index.js';
import { toolDeclarations } from '../sandbox/index.js';

/**
 * CRED-1: the standing instruction of a prompt offered store_secret. A tool error it applies to ends
 * with a "Credential hint" line naming the variables (execute/credential-hint.ts).
 */
export const CREDENTIAL_ROUTINE =
  'Credential routine: when a tool that needs a secret variable fails to authenticate (HTTP 401 or 403, "invalid key", "expired token"), its error ends with a line "Credential hint: ... Variables to refresh: NAME, ...". Call store_secret for each variable that line names, then retry the failed tool call once with the same arguments. If it fails again, stop and tell the user which tool failed and why.';

/** The tool whose programs call the others (tools/run-code). */
const RUN_CODE = 'run_code';

export function systemText(
  prompt: PromptDefinition,
  tools: readonly ResolvedTool[],
  skills: readonly SkillDefinition[],
): string {
  const parts = [prompt.prompt.trim()];
  const offered = new Set(tools.map((tool) => tool.name));
  if (offered.has('skill') && skills.length > 0) {
    parts.push(
      `Skills (load one with the skill tool before following it):\n${skills.map((skill) => `- ${skill.name}: ${skill.description}`).join('\n')}`,
    );
  }
  const deferred = tools.filter((tool) => tool.definition.deferred).map((tool) => tool.name);
  if (offered.has('tool_search') && deferred.length > 0) {
    parts.push(`More tools, loaded by searching for them with tool_search: ${deferred.join(', ')}.`);
  }
  if (offered.has('store_secret')) parts.push(CREDENTIAL_ROUTINE);
  if (offered.has(RUN_CODE)) {
    const callable = tools
      .filter((tool) => tool.name !== RUN_CODE && !tool.definition.deferred)
      .map((tool) => ({ name: tool.name, description: tool.definition.description, parameters: tool.parameters }));
    parts.push(
      `A run_code program is the body of an async function; it returns its answer and has these globals (a tool call resolves with the tool's result text and throws its error):\n\`\`\`ts\n${toolDeclarations(callable).trimEnd()}\n\`\`\``,
    );
  }
  return parts.filter(Boolean).join('\n\n');
}
