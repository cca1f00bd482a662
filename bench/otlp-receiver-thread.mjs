/**
 * The OTLP receiver of the tracing scenario, on a thread of its own: a collector is another machine,
 * so decoding what the Worker sends must not hold up the benchmark's model server, whose event loop
 * times every round. The thread runs harness/otlp-receiver.mjs and answers two questions by message.
 */
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { startOtlpReceiver } from '../harness/otlp-receiver.mjs';

if (!isMainThread && parentPort) {
  const port = parentPort;
  const receiver = await startOtlpReceiver();
  port.on('message', async (question) => {
    if (question.kind === 'count') {
      const spans = receiver.spans();
      port.postMessage({
        id: question.id,
        spans: spans.length,
        requests: receiver.requests,
        named: spans.filter((span) => span.name === question.name).length,
      });
    }
    if (question.kind === 'close') {
      await receiver.close();
      port.postMessage({ id: question.id });
      port.close();
    }
  });
  port.postMessage({ url: receiver.url });
}

/** Starts the receiver thread; its URL, what it has received so far, and a way to stop it. */
export async function startReceiverThread() {
  const worker = new Worker(new URL(import.meta.url));
  const url = await new Promise((resolve, reject) => {
    worker.once('message', (message) => resolve(message.url));
    worker.once('error', reject);
  });
  let asked = 0;
  const ask = (question) =>
    new Promise((resolve) => {
      const id = ++asked;
      const onMessage = (answer) => {
        if (answer.id !== id) return;
        worker.off('message', onMessage);
        resolve(answer);
      };
      worker.on('message', onMessage);
      worker.postMessage({ ...question, id });
    });
  return {
    url,
    /** @param {string} name @returns {Promise<{ spans: number, requests: number, named: number }>} */
    count: (name) => ask({ kind: 'count', name }),
    /** Spans named `name` once at least `wanted` have arrived; rejects after `timeoutMs`. */
    async waitForNamed(name, wanted, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const counted = await ask({ kind: 'count', name });
        if (counted.named >= wanted) return counted;
        if (Date.now() > deadline)
          throw new Error(`the OTLP receiver got ${counted.named} of ${wanted} "${name}" spans`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    close: async () => {
      await ask({ kind: 'close' });
      await worker.terminate();
    },
  };
}
