/**
 * What the client's end-to-end tests share: a real `wrangler dev` serving the example agents plus
 * the `console` agent (test/e2e/client-app), its model the scripted OpenAI-compatible server; a
 * client built for Node (the `ws` WebSocket); a recorder that keeps what a ThreadStream delivers so
 * a test waits for a condition with a deadline instead of sleeping; and the thread's complete frame
 * list read independently of the client (test/e2e/client.ts), the reference every stream is held to.
 */
import WebSocket from 'ws';
import {
  type Client,
  type ClientOptions,
  createClient,
  type Frame,
  type StreamState,
  type ThreadStream,
} from '../../client/index.js';
import { type OpenAIServer, startOpenAIServer } from '../../harness/openai-server.mjs';
import { startWranglerDev, type WranglerDev } from '../../harness/wrangler-dev.mjs';
import { ApiClient } from './client.js';

export const KEY = 'client-e2e-key';
/** A second user of the same Worker. */
export const OTHER_KEY = 'client-e2e-other-key';

export interface ClientWorker {
  model: OpenAIServer;
  dev: WranglerDev;
  /** A client of the Worker with the key and `ws`. */
  client: Client;
  /** Another client of the same Worker with options of the test's own. */
  clientWith(options: Partial<ClientOptions>): Client;
  /** Every frame of the thread, read over a plain socket, none missing. */
  allFrames(id: string): Promise<Frame[]>;
  stop(): Promise<void>;
}

export async function startClientWorker(): Promise<ClientWorker> {
  const model = await startOpenAIServer();
  let dev: WranglerDev;
  try {
    dev = await startWranglerDev({
      config: 'test/e2e/client-app/wrangler.toml',
      // One build for the whole run: an edit of the sources meanwhile must not restart the Worker.
      snapshot: true,
      vars: {
        API_KEYS: `${KEY},${OTHER_KEY}`,
        OPENAI_BASE_URL: model.baseURL,
        OPENAI_API_KEY: 'model-key',
        MODEL: 'fake-model',
        SECRETS_KEY: 'client-e2e-secrets-master-key',
      },
    });
  } catch (error) {
    await model.close();
    throw error;
  }
  const clientWith = (options: Partial<ClientOptions>) =>
    createClient({ baseUrl: dev.url, apiKey: KEY, WebSocket, ...options });
  const plain = new ApiClient(dev.url, KEY);
  return {
    model,
    dev,
    client: clientWith({}),
    clientWith,
    allFrames: async (id) => {
      const last = (await plain.thread(id)).last_frame_seq;
      const recorder = await plain.openStream(id);
      try {
        await recorder.waitFor((frames) => frames.length >= last, `${last} frames`);
        await recorder.flush();
        return recorder.frames as Frame[];
      } finally {
        recorder.close();
      }
    },
    stop: async () => {
      await dev.stop();
      await model.close();
    },
  };
}

/** Keeps every frame and state change of a stream, and waits for conditions on them. */
export class StreamRecorder {
  readonly frames: Frame[] = [];
  readonly states: StreamState[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(readonly stream: ThreadStream) {
    this.states.push(stream.state);
    stream.on('*', (frame) => {
      this.frames.push(frame);
      this.changed();
    });
    stream.onState((state) => {
      this.states.push(state);
      this.changed();
    });
  }

  /**
   * Resolves once `check` holds, checked on every frame and state change and every 10 ms (for
   * conditions on something else, such as pongs); fails after `timeoutMs` with what was received.
   */
  waitFor(check: (recorder: StreamRecorder) => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const listener = () => {
        if (!check(this)) return;
        this.listeners.delete(listener);
        clearTimeout(timer);
        clearInterval(poll);
        resolve();
      };
      const poll = setInterval(listener, 10);
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        clearInterval(poll);
        const seen = this.frames.map((frame) => `${frame.seq}:${frame.type}`).join(' ');
        reject(new Error(`timed out waiting for ${what}; states ${this.states.join(' ')}; frames ${seen}`));
      }, timeoutMs);
      this.listeners.add(listener);
      listener();
    });
  }

  /** Waits for a frame matching `match` and returns it. */
  async frame<T extends Frame>(match: (frame: Frame) => frame is T, what: string, timeoutMs?: number): Promise<T> {
    await this.waitFor((recorder) => recorder.frames.some(match), what, timeoutMs);
    return this.frames.find(match) as T;
  }

  /** Waits until the thread went back to `idle` after running. */
  settled(timeoutMs?: number): Promise<void> {
    return this.waitFor(
      (recorder) => {
        const running = recorder.frames.findIndex((f) => f.type === 'status' && f.status === 'running');
        return running >= 0 && recorder.frames.slice(running).some((f) => f.type === 'status' && f.status === 'idle');
      },
      'the end of the turn',
      timeoutMs,
    );
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** `1..n` for a frame list of n frames. */
export function oneTo(n: number): number[] {
  return Array.from({ length: n }, (_, index) => index + 1);
}
