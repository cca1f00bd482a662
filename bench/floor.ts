/**
 * The floor of a tool round: a Durable Object doing only what any implementation must do per round
 * (one streamed chat-completions request to the model server, its body read to the end, and one
 * SQLite insert), N rounds in one request. The runtime's per-round overhead is compared with this.
 */
import { DurableObject } from 'cloudflare:workers';
import type { RuntimeEnv } from '../src/index.js';

export class Floor extends DurableObject<RuntimeEnv> {
  constructor(ctx: DurableObjectState, env: RuntimeEnv) {
    super(ctx, env);
    ctx.storage.sql.exec('CREATE TABLE IF NOT EXISTS rounds (round INTEGER PRIMARY KEY, body TEXT NOT NULL)');
  }

  /** `POST /floor/<nonce>?rounds=N`: the model server tells this run's requests apart by the nonce. */
  override async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const nonce = url.pathname.split('/')[2] ?? '';
    const rounds = Number(url.searchParams.get('rounds'));
    if (nonce === '' || !Number.isInteger(rounds) || rounds < 1) {
      return Response.json({ error: 'expected POST /floor/<nonce>?rounds=<n>' }, { status: 400 });
    }
    const endpoint = `${this.env.OPENAI_BASE_URL ?? ''}/chat/completions`;
    const body = JSON.stringify({
      model: this.env.MODEL,
      messages: [
        { role: 'system', content: 'floor' },
        { role: 'user', content: `floor ${nonce}` },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
    for (let round = 0; round < rounds; round++) {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.env.OPENAI_API_KEY ?? ''}` },
        body,
      });
      const text = await response.text();
      if (!response.ok) return Response.json({ error: `model server: ${response.status} ${text}` }, { status: 502 });
      this.ctx.storage.sql.exec('INSERT INTO rounds (body) VALUES (?)', text);
    }
    return Response.json({ rounds });
  }
}
