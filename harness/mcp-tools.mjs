/**
 * The tools of the local MCP servers in mcp-servers.mjs, registered on the SDK's own `McpServer` so
 * the runtime's MCP client meets what real servers send: text, image, embedded resource and
 * resource-link contents, tool errors (`isError`), handler exceptions, cancellation of a long call, and
 * a catalog of 200 tools large enough that a model cannot be offered them all at once.
 *
 * The demo set (unit conversion and a world clock) is genuinely useful offline, for the example
 * application under `wrangler dev`. Types are in mcp-tools.d.mts.
 */
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

/**
 * @typedef {import('@modelcontextprotocol/sdk/server/mcp.js').McpServer} McpServer
 * @typedef {import('@modelcontextprotocol/sdk/types.js').CallToolResult} CallToolResult
 * @typedef {import('@modelcontextprotocol/sdk/types.js').ServerRequest} ServerRequest
 * @typedef {import('@modelcontextprotocol/sdk/types.js').ServerNotification} ServerNotification
 * @typedef {import('@modelcontextprotocol/sdk/shared/protocol.js').RequestHandlerExtra<ServerRequest, ServerNotification>} Extra
 *
 * @typedef {object} RecordedToolCall One run of a tool handler, on either transport.
 * @property {string} tool
 * @property {Record<string, unknown>} args
 * @property {string | undefined} sessionId The session the call arrived on.
 * @property {'running' | 'done' | 'failed' | 'cancelled'} status `failed` when the handler threw;
 *   `cancelled` when the request's signal fired (a `notifications/cancelled` or a closed session).
 *
 * @typedef {object} TestToolOptions
 * @property {RecordedToolCall[]} calls Every handler run is pushed here.
 * @property {'all' | 'basic'} [tools] `basic` leaves out the 200 catalog tools; default `all`.
 * @property {string[]} [only] Register just these (the catalog excluded).
 * @property {number} [delayMs] Waited (cancellably) before every call.
 */

/** A 2x2 red PNG: the smallest image that is still unmistakably an image to a decoder. */
export const PIXEL_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR42mP4z8AARAwQCgAf7gP9Y167WwAAAABJRU5ErkJggg==';

/** What `explode` throws; the SDK turns it into an `isError` result carrying this message. */
export const EXPLODE_MESSAGE = 'explode: the handler threw on purpose';

// 200 distinct words, none a substring of another or of the shared phrases below, so a keyword
// search for one of them finds exactly one catalog tool.
const KEYWORDS = `
glacier volcano meadow canyon lagoon tundra savanna estuary geyser fjord
marsh prairie boulder pebble avalanche monsoon blizzard drizzle thunder rainbow
falcon otter badger walrus penguin lobster beetle hornet salmon octopus
giraffe panther buffalo pelican sparrow dolphin jackal iguana hamster weasel
pretzel waffle noodle dumpling biscuit pancake truffle ginger saffron nutmeg
paprika oregano vanilla caramel espresso lemonade cheddar yogurt porridge anchovy
hammer chisel wrench anvil lantern compass sextant telescope kettle teapot
spatula candle mirror pillow blanket curtain carpet ladder bucket thimble
violin cello trumpet banjo accordion harmonica tambourine xylophone bagpipe ukulele
clarinet bassoon piano cymbal mandolin zither kazoo trombone flute oboe
tractor scooter bicycle ferry canoe kayak glider zeppelin rickshaw gondola
caravan sledge trolley yacht dinghy locomotive hovercraft submarine chariot tandem
sapphire emerald topaz garnet quartz obsidian granite marble basalt cobalt
copper bronze pewter nickel zinc mercury titanium graphite amber onyx
tailor cobbler plumber carpenter blacksmith shepherd lumberjack astronaut jockey referee
sheriff butler cashier courier florist jeweler locksmith surgeon weaver baker
lighthouse windmill pagoda igloo cathedral bungalow castle fortress greenhouse observatory
planetarium aquarium brewery monastery pavilion stadium tavern warehouse chapel cottage
origami kaleidoscope boomerang trampoline hourglass metronome abacus parachute umbrella scarecrow
puzzle domino chessboard yoyo frisbee pinwheel crossword jigsaw marionette pinata
`
  .trim()
  .split(/\s+/);

const VERBS = [
  'Look up',
  'Summarize',
  'List',
  'Estimate',
  'Check',
  'Forecast',
  'Compare',
  'Track',
  'Explain',
  'Archive',
];
const SUBJECTS = [
  'schedule',
  'inventory',
  'price history',
  'maintenance log',
  'safety notes',
  'usage statistics',
  'reviews',
  'supplier list',
];
const QUALIFIERS = [
  'for a given region',
  'over the last month',
  'as a compact table',
  'with source links',
  'by category',
];

/** @typedef {{ name: string, description: string, keyword: string }} CatalogTool */

/** @type {CatalogTool[]} */
export const CATALOG_TOOLS = KEYWORDS.map((keyword, index) => ({
  name: `catalog_${String(index).padStart(3, '0')}`,
  description: `${VERBS[index % VERBS.length]} the ${keyword} ${SUBJECTS[Math.floor(index / 10) % SUBJECTS.length]} ${QUALIFIERS[Math.floor(index / 3) % QUALIFIERS.length]}.`,
  keyword,
}));

/**
 * Three small input shapes in turn, so the catalog is not uniform.
 * @param {number} index
 * @returns {Record<string, z.ZodType>}
 */
function catalogShape(index) {
  if (index % 3 === 0) return { query: z.string() };
  if (index % 3 === 1) return { id: z.number().int(), verbose: z.boolean().optional() };
  return { query: z.string(), limit: z.number().int().min(1).max(50).optional() };
}

/**
 * Registers the test tool set on one `McpServer` (one per session: a server serves one transport).
 * @param {McpServer} server
 * @param {TestToolOptions} options
 */
export function registerTestTools(server, options) {
  const wanted = (/** @type {string} */ name) => !options.only || options.only.includes(name);
  /**
   * Records the run, waits `delayMs` first, and notes a cancellation or an exception.
   * @param {string} tool
   * @param {(args: Record<string, unknown>, extra: Extra) => CallToolResult | Promise<CallToolResult>} run
   */
  const tracked = (tool, run) => async (/** @type {Record<string, unknown>} */ args, /** @type {Extra} */ extra) => {
    /** @type {RecordedToolCall} */
    const call = { tool, args, sessionId: extra.sessionId, status: 'running' };
    options.calls.push(call);
    try {
      if (options.delayMs) await wait(options.delayMs, extra.signal);
      const result = await run(args, extra);
      call.status = 'done';
      return result;
    } catch (error) {
      call.status = extra.signal.aborted ? 'cancelled' : 'failed';
      throw error;
    }
  };

  if (wanted('echo')) {
    server.registerTool(
      'echo',
      { description: 'Repeat the given text back, prefixed with "echo: ".', inputSchema: { text: z.string() } },
      tracked('echo', (args) => text(`echo: ${args.text}`)),
    );
  }
  if (wanted('pixel')) {
    server.registerTool('pixel', { description: 'Return a tiny red PNG image and a caption.' }, (extra) =>
      tracked('pixel', () => ({
        content: [
          { type: 'image', data: PIXEL_PNG_BASE64, mimeType: 'image/png' },
          { type: 'text', text: 'a 2x2 red square' },
        ],
      }))({}, extra),
    );
  }
  if (wanted('fetch_doc')) registerFetchDoc(server, tracked);
  if (wanted('fail')) {
    server.registerTool(
      'fail',
      {
        description: 'Fail on purpose: answers a tool result marked isError with the reason.',
        inputSchema: { reason: z.string().optional() },
      },
      tracked('fail', (args) => ({ ...text(String(args.reason ?? 'the tool failed on purpose')), isError: true })),
    );
  }
  if (wanted('explode')) {
    server.registerTool('explode', { description: 'Throw inside the tool handler.' }, (extra) =>
      tracked('explode', () => {
        throw new Error(EXPLODE_MESSAGE);
      })({}, extra),
    );
  }
  if (wanted('slow')) {
    server.registerTool(
      'slow',
      {
        description: 'Wait the given number of milliseconds, then answer; stops early when cancelled.',
        inputSchema: { ms: z.number().int().min(0).max(600_000) },
      },
      tracked('slow', async (args, extra) => {
        await wait(Number(args.ms), extra.signal);
        return text(`slept ${args.ms}`);
      }),
    );
  }
  if (wanted('whoami')) {
    server.registerTool(
      'whoami',
      { description: 'Tell which MCP session the server sees and whether an Authorization header arrived.' },
      (extra) => tracked('whoami', () => text(JSON.stringify(whoami(extra))))({}, extra),
    );
  }
  if ((options.tools ?? 'all') === 'all' && !options.only) registerCatalog(server, tracked);
}

/**
 * What the server knows of its caller, never a credential itself.
 * @param {Extra} extra
 */
function whoami(extra) {
  const headers = extra.requestInfo?.headers ?? {};
  return {
    sessionId: extra.sessionId ?? null,
    authorization: headers.authorization !== undefined,
    clientId: extra.authInfo?.clientId ?? null,
  };
}

/**
 * `fetch_doc` answers an embedded resource, or a link to it; the `docs://{name}` template lets a
 * client read a linked document with `resources/read`.
 * @param {McpServer} server
 * @param {(tool: string, run: (args: Record<string, unknown>) => CallToolResult) => (args: Record<string, unknown>, extra: Extra) => Promise<CallToolResult>} tracked
 */
function registerFetchDoc(server, tracked) {
  server.registerResource(
    'docs',
    new ResourceTemplate('docs://{name}', { list: undefined }),
    { description: 'Markdown documents of the test server.', mimeType: 'text/markdown' },
    (uri, variables) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: docText(String(variables.name)) }],
    }),
  );
  server.registerTool(
    'fetch_doc',
    {
      description: 'Fetch a markdown document by name, embedded in the result or (as: "link") as a resource link.',
      inputSchema: { name: z.string().min(1), as: z.enum(['resource', 'link']).optional() },
    },
    tracked('fetch_doc', (args) => {
      const name = String(args.name);
      const uri = `docs://${name}`;
      if (args.as === 'link') {
        return {
          content: [
            { type: 'resource_link', uri, name, mimeType: 'text/markdown', description: `The ${name} document.` },
          ],
        };
      }
      return { content: [{ type: 'resource', resource: { uri, mimeType: 'text/markdown', text: docText(name) } }] };
    }),
  );
}

/** @param {string} name */
function docText(name) {
  return `# ${name}\n\nThe ${name} document of the local MCP test server.\n`;
}

/**
 * @param {McpServer} server
 * @param {(tool: string, run: (args: Record<string, unknown>) => CallToolResult) => (args: Record<string, unknown>, extra: Extra) => Promise<CallToolResult>} tracked
 */
function registerCatalog(server, tracked) {
  CATALOG_TOOLS.forEach((tool, index) => {
    server.registerTool(
      tool.name,
      { description: tool.description, inputSchema: catalogShape(index) },
      tracked(tool.name, (args) => text(`${tool.name} ok: ${JSON.stringify(args)}`)),
    );
  });
}

// ---- The demo set ----------------------------------------------------------------------------

/** @typedef {{ kind: 'length' | 'mass', factor: number } | { kind: 'temperature' }} UnitSpec */

/** Factors to the base unit of each kind (metre, kilogram); exact where a definition exists. */
/** @type {Record<string, UnitSpec>} */
const UNITS = {
  mm: { kind: 'length', factor: 0.001 },
  cm: { kind: 'length', factor: 0.01 },
  m: { kind: 'length', factor: 1 },
  km: { kind: 'length', factor: 1000 },
  in: { kind: 'length', factor: 0.0254 },
  ft: { kind: 'length', factor: 0.3048 },
  yd: { kind: 'length', factor: 0.9144 },
  mi: { kind: 'length', factor: 1609.344 },
  nmi: { kind: 'length', factor: 1852 },
  mg: { kind: 'mass', factor: 1e-6 },
  g: { kind: 'mass', factor: 0.001 },
  kg: { kind: 'mass', factor: 1 },
  t: { kind: 'mass', factor: 1000 },
  oz: { kind: 'mass', factor: 0.028349523125 },
  lb: { kind: 'mass', factor: 0.45359237 },
  st: { kind: 'mass', factor: 6.35029318 },
  C: { kind: 'temperature' },
  F: { kind: 'temperature' },
  K: { kind: 'temperature' },
};

/** Spelled-out names a model is likely to use, to the symbols above. */
/** @type {Record<string, string>} */
const UNIT_ALIASES = {
  millimetre: 'mm',
  millimeter: 'mm',
  centimetre: 'cm',
  centimeter: 'cm',
  metre: 'm',
  meter: 'm',
  kilometre: 'km',
  kilometer: 'km',
  inch: 'in',
  inches: 'in',
  foot: 'ft',
  feet: 'ft',
  yard: 'yd',
  mile: 'mi',
  'nautical mile': 'nmi',
  milligram: 'mg',
  gram: 'g',
  kilogram: 'kg',
  tonne: 't',
  ounce: 'oz',
  pound: 'lb',
  lbs: 'lb',
  stone: 'st',
  celsius: 'C',
  '°c': 'C',
  c: 'C',
  fahrenheit: 'F',
  '°f': 'F',
  f: 'F',
  kelvin: 'K',
  k: 'K',
};

/** @param {string} unit */
function unitSymbol(unit) {
  const trimmed = unit.trim();
  if (UNITS[trimmed]) return trimmed;
  const lower = trimmed.toLowerCase().replace(/^degrees? /, '');
  if (UNITS[lower]) return lower;
  return UNIT_ALIASES[lower] ?? UNIT_ALIASES[lower.replace(/s$/, '')];
}

/** @param {number} value @param {'C' | 'F' | 'K'} from @param {'C' | 'F' | 'K'} to */
function convertTemperature(value, from, to) {
  const celsius = from === 'C' ? value : from === 'F' ? ((value - 32) * 5) / 9 : value - 273.15;
  return to === 'C' ? celsius : to === 'F' ? (celsius * 9) / 5 + 32 : celsius + 273.15;
}

/**
 * Converts between units of length, mass or temperature.
 * @param {number} value
 * @param {string} from A symbol (`km`, `lb`, `F`) or a name (`kilometre`, `pounds`, `fahrenheit`).
 * @param {string} to
 * @returns {{ ok: true, value: number, text: string } | { ok: false, error: string }}
 */
export function convertUnits(value, from, to) {
  const source = unitSymbol(from);
  const target = unitSymbol(to);
  const known = Object.keys(UNITS).join(', ');
  if (!source || !target) {
    return { ok: false, error: `Unknown unit "${source ? to : from}". Known units: ${known}.` };
  }
  const a = /** @type {UnitSpec} */ (UNITS[source]);
  const b = /** @type {UnitSpec} */ (UNITS[target]);
  if (a.kind !== b.kind) return { ok: false, error: `Cannot convert ${a.kind} (${source}) to ${b.kind} (${target}).` };
  const result =
    a.kind === 'temperature' || b.kind === 'temperature'
      ? convertTemperature(value, /** @type {'C' | 'F' | 'K'} */ (source), /** @type {'C' | 'F' | 'K'} */ (target))
      : (value * a.factor) / b.factor;
  const rounded = Number(result.toPrecision(10));
  const label = (/** @type {string} */ symbol) => (a.kind === 'temperature' && symbol !== 'K' ? `°${symbol}` : symbol);
  return { ok: true, value: rounded, text: `${value} ${label(source)} = ${rounded} ${label(target)}` };
}

/** Cities of the world clock and their IANA time zones. */
export const WORLD_CLOCK_CITIES = /** @type {Record<string, string>} */ ({
  Auckland: 'Pacific/Auckland',
  Berlin: 'Europe/Berlin',
  Cairo: 'Africa/Cairo',
  Chicago: 'America/Chicago',
  Denver: 'America/Denver',
  Dubai: 'Asia/Dubai',
  Honolulu: 'Pacific/Honolulu',
  Lagos: 'Africa/Lagos',
  London: 'Europe/London',
  'Los Angeles': 'America/Los_Angeles',
  Madrid: 'Europe/Madrid',
  'Mexico City': 'America/Mexico_City',
  Moscow: 'Europe/Moscow',
  Mumbai: 'Asia/Kolkata',
  Nairobi: 'Africa/Nairobi',
  'New York': 'America/New_York',
  Paris: 'Europe/Paris',
  Reykjavik: 'Atlantic/Reykjavik',
  'São Paulo': 'America/Sao_Paulo',
  Shanghai: 'Asia/Shanghai',
  Singapore: 'Asia/Singapore',
  Sydney: 'Australia/Sydney',
  Tokyo: 'Asia/Tokyo',
});

/** @param {string} name */
function foldCity(name) {
  return name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ')
    .trim();
}

/**
 * The time in a city of the table at `now`.
 * @param {string} city Matched ignoring case, accents and punctuation (`sao paulo`, `new-york`).
 * @param {Date} [now]
 * @returns {{ ok: true, city: string, timeZone: string, text: string } | { ok: false, error: string }}
 */
export function worldClock(city, now = new Date()) {
  const wanted = foldCity(city);
  const match = Object.entries(WORLD_CLOCK_CITIES).find(([name]) => foldCity(name) === wanted);
  if (!match) {
    return { ok: false, error: `Unknown city "${city}". Known cities: ${Object.keys(WORLD_CLOCK_CITIES).join(', ')}.` };
  }
  const [name, timeZone] = match;
  const formatted = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  }).format(now);
  return { ok: true, city: name, timeZone, text: `${name} (${timeZone}): ${formatted}` };
}

/**
 * Registers `convert_units` and `world_clock`.
 * @param {McpServer} server
 */
export function registerDemoTools(server) {
  server.registerTool(
    'convert_units',
    {
      description:
        'Convert a value between units of length (mm, cm, m, km, in, ft, yd, mi, nmi), mass (mg, g, kg, t, oz, lb, st) or temperature (C, F, K).',
      inputSchema: {
        value: z.number().describe('The quantity to convert.'),
        from: z.string().describe('The unit of the value, e.g. "km" or "fahrenheit".'),
        to: z.string().describe('The unit to convert to, of the same kind.'),
      },
    },
    ({ value, from, to }) => {
      const result = convertUnits(value, from, to);
      return result.ok ? text(result.text) : { ...text(result.error), isError: true };
    },
  );
  server.registerTool(
    'world_clock',
    {
      description: `The current date and time in a city: ${Object.keys(WORLD_CLOCK_CITIES).join(', ')}.`,
      inputSchema: { city: z.string().describe('One of the listed cities.') },
    },
    ({ city }) => {
      const result = worldClock(city);
      return result.ok ? text(result.text) : { ...text(result.error), isError: true };
    },
  );
}

/**
 * @param {string} value
 * @returns {CallToolResult}
 */
function text(value) {
  return { content: [{ type: 'text', text: value }] };
}

/**
 * Resolves after `ms`, or rejects as soon as `signal` fires.
 * @param {number} ms
 * @param {AbortSignal} signal
 * @returns {Promise<void>}
 */
function wait(ms, signal) {
  return new Promise((resolve, reject) => {
    const cancelled = () => new Error(`cancelled: ${String(signal.reason)}`);
    if (signal.aborted) {
      reject(cancelled());
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
