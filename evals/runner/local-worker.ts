/**
 * The Worker a run uses when no `--url` is given: this project under a real `wrangler dev`
 * (harness/wrangler-dev.mjs) on a free port with fresh state, in demo mode, so a model with no
 * credentials is answered by the offline demo model (a `.dev.vars` with a model key is used as
 * `npm run dev` would). It is bundled once at start, so a file saved during the run does not restart
 * it under the running cases; it is stopped when the run ends.
 */
import { randomBytes } from 'node:crypto';
import type { startWranglerDev } from '../../harness/wrangler-dev.mjs';

export type StartWranglerDev = typeof startWranglerDev;

export interface LocalWorker {
  url: string;
  key: string;
  stop(): Promise<void>;
}

export async function startLocalWorker(start: StartWranglerDev): Promise<LocalWorker> {
  const key = `eval-${randomBytes(16).toString('hex')}`;
  const dev = await start({
    snapshot: true,
    inspector: false,
    vars: { API_KEYS: key, DEMO_MODE: 'true', SECRETS_KEY: randomBytes(24).toString('hex') },
  });
  return { url: dev.url, key, stop: () => dev.stop() };
}
