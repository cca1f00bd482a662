import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { api, createThread, settled } from '../support/api.js';
import { directive } from '../support/directive-script.js';
import { openStream } from '../support/socket.js';

const TOKEN = `canary-${crypto.randomUUID()}`;

/** Every value of every row of every table in the thread's SQLite, as text. */
async function allStoredText(id: string): Promise<string> {
  const stub = env.THREADS.get(env.THREADS.idFromName(id));
  return runInDurableObject(stub, (_instance, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .toArray();
    return tables.map(({ name }) => JSON.stringify(sql.exec(`SELECT * FROM "${name}"`).toArray())).join('\n');
  });
}

describe('secret variables', () => {
  it('VAR-3, EXE-8: a secret reaches its tool but is stored only encrypted and scrubbed from results and frames', async () => {
    const id = await createThread({
      agent: 'with_secrets',
      variables: { API_TOKEN: TOKEN, region: 'eu-west' },
    });
    const stream = await openStream(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: { content: directive([{ toolCalls: [{ name: 'use_token' }] }, { text: 'done' }]) },
    });
    const log = await settled(id);
    await stream.waitFor((frame) => frame.type === 'status' && frame.status === 'idle');
    const tool = log.find((m) => m.role === 'tool');
    // The tool read the secret (it is replaced where the tool put it) and the text variable.
    expect(tool?.content).toBe('Error: service refused token [secret] in eu-west');
    expect(JSON.stringify(log)).not.toContain(TOKEN);
    expect(JSON.stringify(stream.frames)).not.toContain(TOKEN);
    expect(stream.frames.find((frame) => frame.type === 'event')).toMatchObject({ data: { token: '[secret]' } });
    const stored = await allStoredText(id);
    expect(stored).not.toContain(TOKEN);
    expect(stored).toContain('eu-west');
    const files = await env.FILES.list({ prefix: `threads/${id}` });
    expect(files.objects).toEqual([]);
    stream.close();
  });

  it('VAR-3: the same secret is sealed differently in two threads', async () => {
    const first = await createThread({ agent: 'with_secrets', variables: { API_TOKEN: TOKEN, region: 'a' } });
    const second = await createThread({ agent: 'with_secrets', variables: { API_TOKEN: TOKEN, region: 'a' } });
    const sealed = async (id: string) =>
      runInDurableObject(
        env.THREADS.get(env.THREADS.idFromName(id)),
        (_instance, state) =>
          state.storage.sql.exec<{ value: string }>("SELECT value FROM variables WHERE name = 'API_TOKEN'").one().value,
      );
    expect(await sealed(first)).not.toBe(await sealed(second));
  });

  it('EXE-8: a secret never reaches the model: every request the model server received is free of it', async () => {
    const canary = `canary-${crypto.randomUUID()}`;
    // Log lines are an output too: capture every console line the run writes (the thread runs in this isolate).
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((arg) => (arg instanceof Error ? `${arg.message} ${arg.stack}` : String(arg))).join(' '));
      }),
    );
    const id = await createThread({
      agent: 'remote_secrets',
      variables: { API_TOKEN: canary, region: 'eu-west' },
    });
    const marker = `marker-${crypto.randomUUID()}`;
    const stream = await openStream(id);
    await api(`/api/threads/${id}/messages`, {
      method: 'POST',
      json: {
        content: directive([
          { toolCalls: [{ name: 'use_token' }, { name: 'echo', arguments: { text: marker } }] },
          { text: 'done' },
        ]),
      },
    });
    const log = await settled(id);
    expect(log.at(-1)).toMatchObject({ role: 'assistant', content: 'done' });
    const received = (await (await fetch(`${env.SERVICES_URL}/model-requests?containing=${marker}`)).json()) as {
      messages: { role: string; content: unknown }[];
    }[];
    // The first request carries the script, the second also both tool results.
    expect(received).toHaveLength(2);
    const toolResults = received[1]?.messages.filter((message) => message.role === 'tool');
    expect(toolResults?.map((message) => message.content)).toEqual([
      'Error: service refused token [secret] in eu-west',
      marker,
    ]);
    expect(JSON.stringify(received)).not.toContain(canary);
    expect(JSON.stringify(stream.frames)).not.toContain(canary);
    expect(await allStoredText(id)).not.toContain(canary);
    for (const spy of spies) spy.mockRestore();
    expect(logged.join('\n')).not.toContain(canary);
    stream.close();
  });

  it('VAR-3: a secret value under 8 characters is refused when the thread is created: 400, nothing created', async () => {
    const tag = `short-${crypto.randomUUID()}`;
    const refused = await api('/api/threads', {
      method: 'POST',
      json: { agent: 'with_secrets', variables: { API_TOKEN: 'seven77', region: 'eu' }, tags: [tag] },
    });
    expect(refused.status).toBe(400);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('secret_too_short');
    expect(body.error.message).toContain('"API_TOKEN"');
    expect(body.error.message).toContain('8 characters');
    const listed = (await (await api(`/api/threads?tag=${tag}`)).json()) as { threads: unknown[] };
    expect(listed.threads).toEqual([]);
    // Eight characters is enough; a short text variable is no concern.
    await createThread({ agent: 'with_secrets', variables: { API_TOKEN: 'eight888', region: 'eu' }, tags: [tag] });
  });
});
