/**
 * A local identity provider for the sign-in scenario: an RS256 signing key made by jose (the algorithm
 * most providers sign with, Cloudflare Access among them), its public key published as a JSON Web Key
 * Set over HTTP on 127.0.0.1, fetched by the Worker as it would fetch a provider's, and tokens signed
 * with it. It counts the key set's fetches, so the scenario can tell that the Worker fetched it once and
 * verified every later token against its cached copy.
 */
import { createServer } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

const ALGORITHM = 'RS256';
const KEY_ID = 'bench-signing-key';
const ISSUER = 'https://idp.bench.test/';
const AUDIENCE = 'standard-agents-bench';
const PATH = '/.well-known/jwks.json';

/**
 * @typedef {object} IdentityProvider
 * @property {Record<string, string>} vars The Worker's variables that accept its tokens.
 * @property {string} host Its `host:port`, for `EGRESS_ALLOW_HOSTS`.
 * @property {(subject: string, claims?: Record<string, unknown>) => Promise<string>} token A token for
 *   `subject`, valid for two hours.
 * @property {() => number} keySetFetches How many times its key set was fetched.
 * @property {() => Promise<void>} close
 */

/** @returns {Promise<IdentityProvider>} */
export async function startIdentityProvider() {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM);
  const keySet = JSON.stringify({
    keys: [{ ...(await exportJWK(publicKey)), kid: KEY_ID, alg: ALGORITHM, use: 'sig' }],
  });
  let fetches = 0;
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== PATH) {
      response.writeHead(404).end();
      return;
    }
    fetches++;
    response.writeHead(200, { 'content-type': 'application/json' }).end(keySet);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the identity provider has no port');
  const host = `127.0.0.1:${address.port}`;
  return {
    vars: { JWT_JWKS_URL: `http://${host}${PATH}`, JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE },
    host,
    token: (subject, claims = {}) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: ALGORITHM, kid: KEY_ID, typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setSubject(subject)
        .setIssuedAt()
        .setExpirationTime('2h')
        .sign(privateKey),
    keySetFetches: () => fetches,
    close: async () => {
      // The Worker keeps its connection to the key set alive: end it, or close waits for it.
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
    },
  };
}
