/**
 * `state.fetch` in Node when the network does not answer: the error names the host and the cause
 * Node gives (a closed local port for real; DNS and TLS failures as undici reports them, by code),
 * and a stopped request keeps its own reason.
 */
import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { egressPolicy } from '../../../../src/engine/egress/egress-policy.js';
import { type FetchTransport, outboundFetch } from '../../../../src/engine/egress/outbound-fetch.js';

/** A local port nothing listens on: a server is started there and closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** A transport that fails the way undici does: a TypeError whose cause carries the code. */
function failing(code: string, message = 'fetch failed'): FetchTransport {
  return async () => {
    throw new TypeError(message, { cause: Object.assign(new Error(`${code} detail`), { code }) });
  };
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught as Error,
  );
  if (!error) throw new Error('the request did not fail');
  return error;
}

describe('failed outbound requests', () => {
  it('EXE-4: a closed port reads "could not connect to <host>: connection refused"', async () => {
    const port = await closedPort();
    const egress = egressPolicy(`127.0.0.1:${port}`);
    const error = await failure(outboundFetch({ egress }, `http://127.0.0.1:${port}/page`));
    expect(error.message).toBe(`could not connect to 127.0.0.1:${port}: connection refused`);
  });

  it('EXE-4: DNS, TLS and timeouts are named by their cause, with the host', async () => {
    const egress = egressPolicy();
    const cases: [FetchTransport, RegExp][] = [
      [failing('ENOTFOUND'), /^could not connect to nowhere\.example: DNS lookup failed/],
      [failing('UND_ERR_CONNECT_TIMEOUT'), /^could not connect to nowhere\.example: the connection timed out$/],
      [failing('CERT_HAS_EXPIRED'), /^could not connect to nowhere\.example: TLS failed \(CERT_HAS_EXPIRED\)$/],
      [failing('ERR_SOMETHING', 'internal error; reference = abc123'), /^could not connect to nowhere\.example \(/],
    ];
    for (const [transport, expected] of cases) {
      const error = await failure(outboundFetch({ egress, transport }, 'https://nowhere.example/x'));
      expect(error.message).toMatch(expected);
      expect(error.message).not.toMatch(/reference =|Error: Error:/);
    }
  });

  it('EXE-5: a stopped request keeps its own reason', async () => {
    const controller = new AbortController();
    const reason = new DOMException('stopped', 'AbortError');
    const transport: FetchTransport = async () => {
      controller.abort(reason);
      throw reason;
    };
    const error = await failure(
      outboundFetch({ egress: egressPolicy(), transport }, 'https://nowhere.example/x', { signal: controller.signal }),
    );
    expect(error).toBe(reason);
  });
});
