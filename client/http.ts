/**
 * The typed HTTP layer: an `openapi-fetch` client over the generated `paths`, so every route, path
 * parameter, query and body is checked against the served OpenAPI document at compile time, and
 * `expectOk`, which turns a failed answer into the ApiError its body describes.
 */
import createFetchClient, { type Client } from 'openapi-fetch';
import { ApiError } from './api-error.js';
import type { paths } from './openapi.js';
import { authHeaders, type Platform } from './options.js';

export type TypedApi = Client<paths>;

export function typedApi(platform: Platform): TypedApi {
  return createFetchClient<paths>({
    baseUrl: platform.baseUrl,
    fetch: (request) => platform.fetch(request),
    headers: authHeaders(platform),
  });
}

/** What an openapi-fetch call resolves to, reduced to what is read here. */
interface Answered<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/** The data of a successful answer; throws the ApiError of any other. */
export async function expectOk<Data>(call: Promise<Answered<Data>>): Promise<Data> {
  const { data, error, response } = await call;
  if (!response.ok) throw ApiError.fromBody(response.status, error);
  return data as Data;
}

/** `fetch` under the base URL with the key, for the routes whose bodies are not JSON (files). */
export async function rawRequest(platform: Platform, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(authHeaders(platform))) headers.set(name, value);
  const response = await platform.fetch(`${platform.baseUrl}${path}`, { ...init, headers });
  if (!response.ok) throw await ApiError.fromResponse(response);
  return response;
}
