/**
 * Types for mcp-tools.mjs, the tools of the local MCP servers: the test set (every content kind, tool
 * errors, a throwing handler, a cancellable slow call, a 200-tool catalog) and the offline demo set.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

/** A 2x2 red PNG, base64. */
export const PIXEL_PNG_BASE64: string;

/** What `explode` throws; the client receives it as the text of an `isError` result. */
export const EXPLODE_MESSAGE: string;

export interface CatalogTool {
  /** `catalog_000` ... `catalog_199`. */
  name: string;
  description: string;
  /** A word of the description that no other catalog tool's name, description or schema contains. */
  keyword: string;
}

/** The 200 catalog tools, in order. */
export const CATALOG_TOOLS: readonly CatalogTool[];

/** One run of a tool handler, on either transport. */
export interface RecordedToolCall {
  tool: string;
  args: Record<string, unknown>;
  /** The session the call arrived on. */
  sessionId: string | undefined;
  /**
   * `failed` when the handler threw; `cancelled` when the request's signal fired (a
   * `notifications/cancelled` from the client, or the session closing).
   */
  status: 'running' | 'done' | 'failed' | 'cancelled';
}

export interface TestToolOptions {
  /** Every handler run is pushed here. */
  calls: RecordedToolCall[];
  /** `basic` leaves out the 200 catalog tools; default `all`. */
  tools?: 'all' | 'basic';
  /** Register just these (never the catalog). */
  only?: string[];
  /** Waited, cancellably, before every call. */
  delayMs?: number;
}

/** Registers the test tools (and the `docs://{name}` resource template) on one server. */
export function registerTestTools(server: McpServer, options: TestToolOptions): void;

/** Registers `convert_units` and `world_clock`. */
export function registerDemoTools(server: McpServer): void;

export type ConversionResult = { ok: true; value: number; text: string } | { ok: false; error: string };

/**
 * Converts between units of length, mass or temperature; `from` and `to` are symbols (`km`, `lb`,
 * `F`) or names (`kilometres`, `pounds`, `fahrenheit`).
 */
export function convertUnits(value: number, from: string, to: string): ConversionResult;

/** The world clock's cities and their IANA time zones. */
export const WORLD_CLOCK_CITIES: Readonly<Record<string, string>>;

export type WorldClockResult =
  | { ok: true; city: string; timeZone: string; text: string }
  | { ok: false; error: string };

/** The time in a city of the table at `now` (default: the current time). */
export function worldClock(city: string, now?: Date): WorldClockResult;
