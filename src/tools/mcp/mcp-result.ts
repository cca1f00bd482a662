/**
 * An MCP tool result as the thread's uniform result (seed 003): text content becomes the result
 * text, images, audio and binary resources become attachments stored under `/attachments/`
 * (ATT-2), embedded text resources and resource links are quoted in the text, structured content
 * stands in when there is no text, and `isError` makes an error result the model can read.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolAttachment, ToolResult } from '../../spec/index.js';

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
};

type Content = CallToolResult['content'][number];

function fileName(tool: string, index: number, mimeType: string, uri?: string): string {
  const fromUri = uri ? decodeURIComponent(uri.split(/[/?#]/).filter(Boolean).pop() ?? '') : '';
  if (fromUri && /^[\w.-]+$/.test(fromUri)) return fromUri;
  return `${tool}-${index + 1}.${EXTENSIONS[mimeType] ?? 'bin'}`;
}

function describe(content: Content, index: number, tool: string, attachments: ToolAttachment[]): string | null {
  switch (content.type) {
    case 'text':
      return content.text;
    case 'image':
    case 'audio': {
      const name = fileName(tool, index, content.mimeType);
      attachments.push({ name, mimeType: content.mimeType, data: content.data });
      return `[${content.type} ${name}]`;
    }
    case 'resource': {
      const resource = content.resource;
      if ('text' in resource) return `Resource ${resource.uri}:\n${resource.text}`;
      const mimeType = resource.mimeType ?? 'application/octet-stream';
      const name = fileName(tool, index, mimeType, resource.uri);
      attachments.push({ name, mimeType, data: resource.blob });
      return `[resource ${resource.uri} as ${name}]`;
    }
    case 'resource_link':
      return `Resource link: ${content.name} <${content.uri}>${content.description ? ` ${content.description}` : ''}`;
    default:
      return null;
  }
}

/** `tool` names attachments; the server's own name of the tool. */
export function mcpToolResult(result: CallToolResult, tool: string): ToolResult {
  const attachments: ToolAttachment[] = [];
  const parts = (result.content ?? [])
    .map((content, index) => describe(content, index, tool, attachments))
    .filter((part): part is string => part !== null);
  const hasText = (result.content ?? []).some((content) => content.type === 'text');
  if (!hasText && result.structuredContent) {
    parts.push(JSON.stringify(result.structuredContent));
  }
  const text = parts.join('\n');
  if (result.isError) {
    return { status: 'error', error: text || `The MCP tool "${tool}" failed without a message.` };
  }
  return { status: 'success', result: text, ...(attachments.length > 0 ? { attachments } : {}) };
}
