/**
 * The system text a prompt sends: its own prompt, then the one-line descriptions of the skills the
 * `skill` tool can load (LOCK-4), and the names of deferred tools `tool_search` can load (KIND-8).
 */
import type { PromptDefinition, SkillDefinition } from '../../spec/index.js';
import type { ResolvedTool } from '../registry/index.js';

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
  return parts.filter(Boolean).join('\n\n');
}
