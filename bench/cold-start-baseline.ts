/**
 * The cold-start scenario's baseline (bench/scenarios/cold-start.mjs): a Worker of the benchmark
 * Worker's shape (the same bench/wrangler.toml, so the same bindings, Durable Object classes and
 * SQLite storage) that does next to nothing, so a fresh runtime's startup is compared with the least
 * any Worker on that configuration costs on the same machine in the same run.
 *
 * Its two routes do what the runtime's do at the least: `GET /` answers a small JSON index at once;
 * `POST /api/threads` checks the key, writes the new thread's row to D1 and has a fresh Durable Object
 * write its first SQLite row before answering 201, as the runtime does when a thread is created.
 */
import { DurableObject } from 'cloudflare:workers';

interface BaselineEnv {
  THREADS: DurableObjectNamespace<Thread>;
  DB: D1Database;
  API_KEYS?: string;
}

export class Thread extends DurableObject<BaselineEnv> {
  async create(id: string): Promise<void> {
    this.ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS thread (id TEXT PRIMARY KEY, created_at INTEGER)');
    this.ctx.storage.sql.exec('INSERT INTO thread (id, created_at) VALUES (?, ?)', id, Date.now());
  }
}

/** The benchmark configuration binds two more classes; the baseline never uses them. */
export class Floor extends DurableObject {}
export class Tenant extends DurableObject {}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method === 'GET' && url.pathname === '/') return Response.json({ agents: [] });
    if (request.method !== 'POST' || url.pathname !== '/api/threads') return new Response(null, { status: 404 });
    const key = request.headers.get('authorization')?.replace(/^Bearer /, '');
    if (!key || !(env.API_KEYS ?? '').split(',').includes(key)) return new Response(null, { status: 401 });
    const id = env.THREADS.newUniqueId();
    await env.DB.exec('CREATE TABLE IF NOT EXISTS threads (id TEXT PRIMARY KEY, agent TEXT)');
    await env.DB.prepare('INSERT INTO threads (id, agent) VALUES (?, ?)').bind(id.toString(), 'baseline').run();
    await env.THREADS.get(id).create(id.toString());
    return Response.json({ id: id.toString() }, { status: 201 });
  },
} satisfies ExportedHandler<BaselineEnv>;
