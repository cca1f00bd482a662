/**
 * Tool design lint (DEF-4, DEF-7, seed 002): each rule with a failing and a passing example, the example
 * app's own tools, and the `lint:tools` command with its exit codes.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineTool, type LintFinding, lintTool, lintTools, type ToolResult } from '@standardagents/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as app from '../../../agents/index.js';

const ok = async (): Promise<ToolResult> => ({ status: 'success', result: 'ok' });
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

function tool(description: string, args?: z.ZodObject) {
  return args ? defineTool({ description, args, execute: ok }) : defineTool({ description, execute: ok });
}

/** Messages of one rule's findings for a tool named `search_docs`. */
function messages(rule: string, description: string, args?: z.ZodObject, name = 'search_docs'): string[] {
  return lintTool(name, tool(description, args))
    .filter((finding) => finding.rule === rule)
    .map((finding) => finding.message);
}

const VERB = 'description should start with an imperative verb ("Search ...", "Get ...")';

describe('tool design lint', () => {
  it('DEF-4: name-format warns about names that are not snake_case or not 1 to 64 characters', () => {
    const nameMessages = (name: string) => messages('name-format', 'Search the docs', undefined, name);
    expect(nameMessages('getWeather')).toEqual([
      'tool name "getWeather" is not snake_case (lowercase letters, digits, single underscores)',
    ]);
    expect(nameMessages('get__weather')).toHaveLength(1);
    expect(nameMessages('_weather')).toHaveLength(1);
    expect(nameMessages('1weather')).toHaveLength(1);
    expect(nameMessages('get-weather')).toHaveLength(1);
    expect(nameMessages('a'.repeat(65))).toEqual([
      `tool name "${'a'.repeat(65)}" is 65 characters long; names are 1 to 64`,
    ]);
    expect(nameMessages('')).toEqual(['tool name "" is 0 characters long; names are 1 to 64']);

    for (const good of ['get_weather', 'a', 'v2_search', 'a'.repeat(64)]) expect(nameMessages(good)).toEqual([]);
  });

  it('DEF-7: description-one-sentence flags a second sentence and ignores abbreviations and dotted names', () => {
    expect(messages('description-one-sentence', 'Search the docs. Returns the top hits.')).toEqual([
      'description has more than one sentence; the second starts "Returns the top hits."',
    ]);
    expect(messages('description-one-sentence', 'Search the docs! Then rank them')).toHaveLength(1);
    expect(messages('description-one-sentence', 'Search the docs\nReturn the top hits')).toHaveLength(1);
    expect(
      messages(
        'description-one-sentence',
        'Search the docs for the query given by the user. It can be a phrase or a list.',
      ),
    ).toEqual(['description has more than one sentence; the second starts "It can be a phrase or a list."']);
    const long = 'Search the docs. Rank every hit by how closely its title and body match the query words given';
    expect(messages('description-one-sentence', long)).toEqual([
      'description has more than one sentence; the second starts "Rank every hit by how closely its title and body match the q..."',
    ]);

    for (const good of [
      'Search the docs.',
      'Search the docs',
      'Convert an amount, e.g. 10 USD, to another currency.',
      'Look up a user by name, e.g. Alice or Bob',
      'Convert the price to U.S. Dollars',
      'Read a file such as config.json or v1.2.3/notes.md',
      'Round to approx. two digits',
      'Sort items by size, date, etc. in ascending order',
    ]) {
      expect(messages('description-one-sentence', good), good).toEqual([]);
    }
  });

  it('DEF-7: description-verb-led flags descriptions that do not start with an imperative verb', () => {
    const cases: Array<[string, string]> = [
      ['Returns the weather for a city', '"Returns" looks like a third-person verb or a plural noun (write "Return")'],
      ['Fetches a page', '"Fetches" looks like a third-person verb or a plural noun (write "Fetch")'],
      ['Searches the docs', '"Searches" looks like a third-person verb or a plural noun (write "Search")'],
      ['Queries the database', '"Queries" looks like a third-person verb or a plural noun (write "Query")'],
      ['Processes the queue', '"Processes" looks like a third-person verb or a plural noun (write "Process")'],
      ['Gets the time', '"Gets" looks like a third-person verb or a plural noun (write "Get")'],
      ['The weather for a city', '"The" is an article'],
      ['This tool searches the docs', '"This" is a determiner'],
      ['Tool that searches the docs', '"Tool" is a description of the tool rather than of its action'],
      ['Used to search the docs', '"Used" is a description of the tool rather than of its action'],
      ['Use this to search the docs', '"Use" is a description of the tool rather than of its action'],
      ['For a city, get the weather', '"For" is a preposition'],
      ['It searches the docs', '"It" is a pronoun'],
      ['Searching the docs by keyword', '"Searching" is an -ing form'],
      ['Based on the query, search the docs', '"Based" is a past participle'],
    ];
    for (const [description, reason] of cases) {
      expect(messages('description-verb-led', description), description).toEqual([`${VERB}; ${reason}`]);
    }
    expect(messages('description-verb-led', '42 ways to search')).toEqual([
      'description should start with an imperative verb, not "42"',
    ]);

    for (const good of [
      'Search the docs',
      'Get the current server time in ISO format',
      'Fetch data from external API',
      'List files in a folder',
      'Process the queue',
      'Access the vault',
      'Parse a date string',
      'Focus the window',
      'Alias a command',
      'Bring the window to the front',
      'Ping the host',
      'Embed the text',
      'Proceed to checkout',
      '"Translate" a phrase',
    ]) {
      expect(messages('description-verb-led', good), good).toEqual([]);
    }
  });

  it('DEF-7: description-no-trigger flags trigger conditions such as "Use when" and quotes them', () => {
    expect(messages('description-no-trigger', 'Get the forecast; use this when the user asks about weather')).toEqual([
      'description states when to call the tool: "use this when", "when the user"',
    ]);
    expect(messages('description-no-trigger', 'Rebuild the index whenever a file changes')).toEqual([
      'description states when to call the tool: "whenever"',
    ]);
    expect(messages('description-no-trigger', 'Rebuild the index; call this tool only after an upload')).toEqual([
      'description states when to call the tool: "call this tool only after"',
    ]);
    expect(messages('description-no-trigger', 'Ask for a city if the user did not name one')).toEqual([
      'description states when to call the tool: "if the user"',
    ]);

    for (const good of ['Get the weather for a city', 'Schedule a reminder for when the meeting starts']) {
      expect(messages('description-no-trigger', good), good).toEqual([]);
    }
  });

  it('DEF-7: description-no-comparison flags comparisons and mentions of other registered tools', () => {
    expect(messages('description-no-comparison', 'Search the web instead of the local index')).toEqual([
      'description compares with other tools: "instead of"',
    ]);
    expect(messages('description-no-comparison', 'Search the docs, preferred over grep, rather than guessing')).toEqual(
      ['description compares with other tools: "preferred", "rather than"'],
    );

    const described = (tools: Record<string, string>): LintFinding[] =>
      lintTools(Object.fromEntries(Object.entries(tools).map(([name, text]) => [name, tool(text)]))).filter(
        (finding) => finding.rule === 'description-no-comparison',
      );
    expect(described({ search_docs: 'Search the docs, faster than search_web', search_web: 'Search the web' })).toEqual(
      [
        {
          tool: 'search_docs',
          rule: 'description-no-comparison',
          message: 'description compares with other tools: "faster than", "search_web"',
        },
      ],
    );
    // A one-word tool name is ordinary English: only a quoted mention counts.
    expect(described({ search: 'Search the web', fetch: 'Fetch a page found by `search`' })).toEqual([
      { tool: 'fetch', rule: 'description-no-comparison', message: 'description compares with other tools: "search"' },
    ]);

    expect(described({ search: 'Search the web', fetch: 'Fetch a search result page' })).toEqual([]);
    expect(described({ search_web: 'Search the web', sort_rows: 'Sort the rows by user preference' })).toEqual([]);
  });

  it('DEF-7: description-no-output-schema flags prose about the returned data', () => {
    expect(messages('description-no-output-schema', 'Look up a user and return a JSON object')).toEqual([
      'description describes the output: "return a JSON"',
    ]);
    expect(messages('description-no-output-schema', 'Look up a user; the response contains id and name')).toEqual([
      'description describes the output: "the response contains"',
    ]);
    expect(messages('description-no-output-schema', 'Look up a user (Output: id, name)')).toEqual([
      'description describes the output: "Output:"',
    ]);
    expect(messages('description-no-output-schema', 'Look up a user with fields: id, name')).toEqual([
      'description describes the output: "with fields", "fields:"',
    ]);
    expect(messages('description-no-output-schema', 'Look up a user as { id: string }')).toEqual([
      'description describes the output: "{ id:"',
    ]);

    for (const good of [
      'Get the current server time in ISO format',
      'Return the book to the library',
      'Set the output directory',
      'Search the knowledge base for relevant information',
    ]) {
      expect(messages('description-no-output-schema', good), good).toEqual([]);
    }
  });

  it('DEF-7: english-only flags non-Latin letters in the description and in every argument description', () => {
    expect(messages('english-only', 'Search 知识库 docs')).toEqual(['description contains non-Latin text: "知识库"']);
    const args = z.object({
      query: z.string().describe('Поисковый запрос'),
      filters: z.object({ tag: z.string().describe('Tag, e.g. وسم') }).describe('Filters'),
      items: z.array(z.string().describe('項目')),
    });
    expect(messages('english-only', 'Search the docs', args)).toEqual([
      'argument "query" has a description with non-Latin text: "Поисковый запрос"',
      'argument "filters.tag" has a description with non-Latin text: "وسم"',
      'argument "items[]" has a description with non-Latin text: "項目"',
    ]);

    const latin = z.object({ unit: z.string().describe('Unit such as µm, Ångström or Łódź time – naïve café') });
    expect(messages('english-only', 'Convert a length to another unit, e.g. µm → mm', latin)).toEqual([]);
  });

  it('DEF-7: optional-needs-default flags optional arguments without a default, at any depth, by field path', () => {
    const args = z.object({
      query: z.string(),
      limit: z.number().optional(),
      page: z.number().default(1),
      size: z.number().optional().default(10),
      after: z.string().default('').optional(),
      mode: z.string().nullable(),
      cursor: z.string().nullish(),
      filters: z
        .object({ tag: z.string().optional(), since: z.string().default('') })
        .optional()
        .default({ since: '' }),
      items: z.array(z.object({ id: z.string().optional(), tags: z.array(z.string().optional()) })),
      meta: z.record(z.string(), z.object({ note: z.string().optional() })),
      choice: z.union([z.object({ kind: z.string().optional() }), z.string()]),
    });
    expect(messages('optional-needs-default', 'Search the docs', args)).toEqual([
      'optional argument "limit" declares no default; add .default(...)',
      'optional argument "cursor" declares no default; add .default(...)',
      'optional argument "filters.tag" declares no default; add .default(...)',
      'optional argument "items[].id" declares no default; add .default(...)',
      'optional argument "meta{}.note" declares no default; add .default(...)',
      'optional argument "choice.kind" declares no default; add .default(...)',
    ]);

    expect(messages('optional-needs-default', 'Get the time')).toEqual([]);
    expect(
      messages('optional-needs-default', 'Search the docs', z.object({ limit: z.number().optional().default(10) })),
    ).toEqual([]);
  });

  it("DEF-7: the example app's tools pass the lint with no findings", () => {
    expect(Object.keys(app.tools)).toEqual(['get_current_time', 'search_knowledge_base', 'fetch_data', 'remind_me']);
    expect(lintTools(app.tools)).toEqual([]);
  });

  it('DEF-7: `lint:tools --strict` exits 1 and prints findings for a bad app, 0 for the example app', () => {
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['scripts/lint-tools.mjs', ...args], { cwd: repoRoot, encoding: 'utf8' });

    const bad = run('--strict', 'test/node/fixtures/bad-tools/index.ts');
    expect(bad.stderr).toBe('');
    expect(bad.status).toBe(1);
    const lines = bad.stdout.split('\n');
    expect(lines).toContain(
      'getWeather  optional-needs-default    optional argument "city" declares no default; add .default(...)',
    );
    expect(lines).toContain(
      'getWeather  description-no-trigger    description states when to call the tool: "Use this when", "when the user"',
    );
    expect(lines.filter((line) => line.startsWith('getWeather  '))).toHaveLength(5);
    expect(lines.some((line) => line.startsWith('get_time'))).toBe(false);
    expect(lines).toContain('5 findings in 1 of 2 tools (--strict: failing).');

    // Without --strict the same findings are warnings.
    expect(run('test/node/fixtures/bad-tools/index.ts').status).toBe(0);

    const clean = run('--strict');
    expect(clean.stderr).toBe('');
    expect(clean.status).toBe(0);
    expect(clean.stdout).toContain('Tool design lint (DEF-7): agents/index.ts, 4 tools');
    expect(clean.stdout).toContain('No findings in 4 tools.');
  }, 30_000);
});
