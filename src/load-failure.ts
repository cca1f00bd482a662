/**
 * What the development Worker serves while the application's definitions cannot load: an error page
 * at `/` and elsewhere for browsers, and a 503 `definition_error` on the API and MCP paths, so the
 * developer reads the mistake, saves the fix, and `wrangler dev` reloads into the real runtime
 * without anything having exited. Never used by the deployed Worker (see dev-runtime.ts).
 */
import { DurableObject } from 'cloudflare:workers';
import type { RuntimeEnv } from './thread/bindings/index.js';

/** What the failure names, read from the DefinitionError's own words (definition-error.ts). */
export interface LoadFailureDetails {
  /** The source file of the failing definition, when the message names one. */
  file?: string;
  /** The key the tool is registered by in the application's `tools`. */
  tool?: string;
  /** The argument whose schema is refused. */
  argument?: string;
  /** The prompt whose definition or references are wrong. */
  prompt?: string;
}

export interface LoadFailure {
  code: 'definition_error' | 'application_error';
  message: string;
  details: LoadFailureDetails;
}

/** How long a Thread's alarm waits before trying again while the definitions are broken. */
const ALARM_RETRY_MS = 5_000;

export function loadFailure(error: unknown): LoadFailure {
  const definition = error instanceof Error && error.name === 'DefinitionError';
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  const details: LoadFailureDetails = {};
  const file = /\(([^\s()"]+\.[cm]?[jt]sx?)(?::\d+)?\)/.exec(message)?.[1];
  const tool = /^[^:]+: tool "([^"]+)"/.exec(message)?.[1];
  const argument = /argument "([^"]+)"/.exec(message)?.[1];
  const prompt = /^[^:]+: prompt "([^"]+)"/.exec(message)?.[1];
  if (file) details.file = file;
  if (tool) details.tool = tool;
  if (argument) details.argument = argument;
  if (prompt) details.prompt = prompt;
  return { code: definition ? 'definition_error' : 'application_error', message, details };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function errorPage(failure: LoadFailure): Response {
  const rows = Object.entries(failure.details)
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd><code>${escapeHtml(String(value))}</code></dd>`)
    .join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Definition error</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:3rem auto;padding:0 1rem}
pre{white-space:pre-wrap;background:#fff0f0;border-left:4px solid #c00;padding:1rem}</style></head><body>
<h1>The application's definitions cannot load</h1><pre>${escapeHtml(failure.message)}</pre><dl>${rows}</dl>
<p>Fix the definition and save: <code>npm run dev</code> reloads the Worker; reload this page.</p></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}

function errorJson(failure: LoadFailure): Response {
  return Response.json({ error: failure }, { status: 503, headers: { 'cache-control': 'no-store' } });
}

/** The Worker's fetch handler while the definitions are broken. */
export function loadFailureWorker(failure: LoadFailure): ExportedHandler<RuntimeEnv> {
  return {
    fetch: (request) => {
      const path = new URL(request.url).pathname;
      const api = /^\/(api|mcp|oauth)(\/|$)/.test(path) || path === '/openapi.json';
      return api ? errorJson(failure) : errorPage(failure);
    },
  };
}

/**
 * The Thread class while the definitions are broken: no request reaches it (the Worker answers them
 * all), and an alarm (a turn to resume) is put off until a fixed Worker, with the real class, runs it.
 */
export function loadFailureThread(
  failure: LoadFailure,
): new (
  ctx: DurableObjectState,
  env: RuntimeEnv,
) => DurableObject<RuntimeEnv> {
  return class Thread extends DurableObject<RuntimeEnv> {
    override async fetch(): Promise<Response> {
      return errorJson(failure);
    }

    override async alarm(): Promise<void> {
      await this.ctx.storage.setAlarm(Date.now() + ALARM_RETRY_MS);
    }
  };
}
