/**
 * MCP servers as an author declares them (LOCK-4, VAR-3), and the pure pieces of the MCP client:
 * tool names, schemas, results. Behaviour against real MCP servers is proven in
 * test/workers/mcp-client.test.ts.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DefinitionError, defineAgent, defineModel, definePrompt } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { Registry } from '../../../../src/engine/registry/index.js';
import { demoScript } from '../../../../src/providers/scripted/demo-script.js';
import { mcpToolName } from '../../../../src/tools/mcp/index.js';
import { mcpToolResult } from '../../../../src/tools/mcp/mcp-result.js';
import { mcpToolArguments } from '../../../../src/tools/mcp/mcp-schema.js';

const model = defineModel({ name: 'm', provider: 'scripted', script: () => ({ text: 'ok' }) });

function app(server: Parameters<typeof definePrompt>[0]['mcpServers'], variables = [] as never[]) {
  return new Registry({
    models: [model],
    prompts: [definePrompt({ name: 'p', prompt: 'x', model: 'm', mcpServers: server, variables })],
    agents: [defineAgent({ name: 'a', sideA: { prompt: 'p' } })],
  });
}

describe('declaring MCP servers', () => {
  it('LOCK-4: a bad name, url, transport or timeout is a definition error naming the server', () => {
    const bad = [
      [{ '1bad': { url: 'https://x.example/mcp' } }, /must start with a letter/],
      [{ docs: { url: 'not a url' } }, /is not a URL/],
      [{ docs: { url: 'ftp://x.example/mcp' } }, /http or https/],
      [{ docs: { url: 'https://x.example/mcp', transport: 'stdio' } }, /transport/],
      [{ docs: { url: 'https://x.example/mcp', timeout: 0 } }, /timeout/],
    ] as const;
    for (const [servers, message] of bad) {
      expect(() => definePrompt({ name: 'p', prompt: 'x', model: 'm', mcpServers: servers as never })).toThrow(message);
    }
  });

  it('VAR-3: a header may only take secret variables; a url only declared ones', () => {
    expect(() =>
      app({ docs: { url: 'https://x.example/mcp', headers: { authorization: 'Bearer {TOKEN}' } } }, [
        { name: 'TOKEN', type: 'text', required: true, description: '' },
      ] as never[]),
    ).toThrow(/header "authorization" uses \{TOKEN\}, which must be declared as a secret variable/);
    expect(() => app({ docs: { url: '{NOWHERE}' } })).toThrow(DefinitionError);
    expect(() =>
      app({ docs: { url: '{DOCS_URL}', headers: { authorization: 'Bearer {TOKEN}' } } }, [
        { name: 'DOCS_URL', type: 'text', required: true, description: '' },
        { name: 'TOKEN', type: 'secret', required: true, description: '' },
      ] as never[]),
    ).not.toThrow();
  });
});

describe('MCP tools as the thread names, checks and reports them', () => {
  it('LOCK-4: names are <server>__<tool>, cleaned and kept distinct within 64 characters', () => {
    expect(mcpToolName('docs', 'search')).toBe('docs__search');
    const dotted = mcpToolName('docs', 'files.read');
    expect(dotted).toMatch(/^docs__files_read_[0-9a-f]{8}$/);
    expect(dotted).not.toBe(mcpToolName('docs', 'files_read'));
    const long = mcpToolName('docs', 'x'.repeat(100));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).not.toBe(mcpToolName('docs', `${'x'.repeat(99)}y`));
  });

  it('EXE-1: the server schema is sent as written and checks arguments before the call', () => {
    const { parameters, args } = mcpToolArguments({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
    });
    expect(parameters).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } },
      required: ['city'],
    });
    expect(args.safeParse({ city: 'Oslo', days: 2 }).success).toBe(true);
    expect(args.safeParse({ days: 2 }).success).toBe(false);
    expect(args.safeParse({ city: 'Oslo', days: 0 }).success).toBe(false);
    // A schema without properties still yields an object schema the model can be sent.
    expect(mcpToolArguments(undefined).parameters).toEqual({ type: 'object', properties: {} });
  });

  it('LOCK-4: text, images, resources and errors map onto the uniform result', () => {
    const result = mcpToolResult(
      {
        content: [
          { type: 'text', text: 'two files' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'resource', resource: { uri: 'docs://guide', text: '# Guide' } },
          {
            type: 'resource',
            resource: { uri: 'docs://data/report.pdf', blob: 'JVBERi0=', mimeType: 'application/pdf' },
          },
          { type: 'resource_link', uri: 'docs://more', name: 'more' },
        ],
      } as CallToolResult,
      'list',
    );
    expect(result.status).toBe('success');
    expect(result.result).toBe(
      'two files\n[image list-2.png]\nResource docs://guide:\n# Guide\n[resource docs://data/report.pdf as report.pdf]\nResource link: more <docs://more>',
    );
    expect(result.attachments).toEqual([
      { name: 'list-2.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      { name: 'report.pdf', mimeType: 'application/pdf', data: 'JVBERi0=' },
    ]);
    expect(mcpToolResult({ content: [{ type: 'text', text: 'no such row' }], isError: true }, 'get')).toEqual({
      status: 'error',
      error: 'no such row',
    });
    expect(mcpToolResult({ content: [], structuredContent: { rows: 3 } }, 'count')).toEqual({
      status: 'success',
      result: '{"rows":3}',
    });
  });

  it('the offline demo model passes the JSON written after a tool name as its arguments', () => {
    const reply = demoScript({
      messages: [{ role: 'user', content: 'units__world_clock {"city": "Tokyo"} please' }],
      toolNames: ['units__world_clock'],
    } as never);
    expect(reply.toolCalls).toEqual([{ name: 'units__world_clock', arguments: { city: 'Tokyo' } }]);
  });
});
