/**
 * Sign-in: what signing in costs a request. `GET /bench/open` answers `ok` with no sign-in, and
 * `GET /bench/signed` answers the same behind the runtime's sign-in middleware (bench/worker.ts), so
 * the difference of their times is the sign-in's whole cost, for each kind of credential:
 * - an `API_KEYS` key: its SHA-256 looked up among the keys' digests, then the rate-limit admission,
 *   which makes no RPC while its tenant has no requests-per-minute limit. This is the check as it was
 *   before keys were issued, tokens accepted and tenants limited: today's path, the baseline;
 * - a key issued through the API (`sak_…`, made with the bootstrap admin key): its tenant and digest
 *   read from D1 once per isolate, its digest compared, its role and revocation asked of its tenant's
 *   object (one RPC to an object holding them in memory);
 * - an identity provider's JWT (RS256, bench/identity-provider.mjs): verified with jose against the
 *   provider's key set, fetched once and then cached;
 * - the `API_KEYS` key while its tenant has a requests-per-minute limit (set far above what the run
 *   sends): every request then waits for the RPC to the tenant's object that counts it.
 *
 * For scale, two requests with no sign-in time the storage hops those paths add: `GET /bench/d1`, one
 * bare D1 query, and `GET /floor/ping`, a call to a live Durable Object that answers at once.
 *
 * Requests are sequential, on one keep-alive connection, the arms taking turns request by request. A
 * limit holds for the whole tenant, and every `API_KEYS` key is of the default tenant, so the limited
 * key is timed in a second phase of each repetition, with the limit set, beside `/bench/open` again;
 * its cost over the `API_KEYS` path is the difference of the two phases' costs over `/bench/open`,
 * each taken between requests made side by side.
 */
import { performance } from 'node:perf_hooks';
import { benchClient } from '../client.mjs';
import { ms, spreadText, table, verdict } from '../format.mjs';
import { derived, pooledRow, repeat } from '../repetitions.mjs';

/** Requests of each arm per repetition. */
const SAMPLES = 200;
/** Untimed requests of each arm first: the key set fetched, the D1 row read, the Tenant object woken. */
const WARM_UP = 20;
/** The requirement: signing in adds at most this over today's check, median per request. */
const TARGET_MS = 0.5;
/** A requests-per-minute limit no run comes near: every request is counted, none refused. */
const HIGH_LIMIT = 1_000_000;

/** @param {number[]} values */
const all = (values) => values;

/**
 * One GET, timed from sending it to having read its body; any other answer than `200 <expected>` ends
 * the run.
 * @param {string} url
 * @param {string} path
 * @param {string | null} credential
 * @param {string} [expected]
 */
async function timedGet(url, path, credential, expected = 'ok') {
  const headers = credential === null ? {} : { authorization: `Bearer ${credential}` };
  const at = performance.now();
  const response = await fetch(`${url}${path}`, { headers });
  const body = await response.text();
  const elapsed = performance.now() - at;
  if (response.status !== 200 || body !== expected) throw new Error(`GET ${path}: ${response.status} ${body}`);
  return [elapsed];
}

/** @param {import('../stats.mjs').Spread} spread */
const withIqr = ({ median, q1, q3 }) => `**${ms(median, 2)}** (${ms(q1, 2)} – ${ms(q3, 2)})`;

/**
 * @param {import('../run.mjs').Bench} bench
 * @returns {Promise<import('../format.mjs').Section>}
 */
export async function signIn({ url, key, adminKey, identityProvider, model, repetitions }) {
  const admin = benchClient({ url, key: adminKey, model });
  const issuedKey = (await admin.api('POST', '/api/keys', { name: 'bench sign-in', role: 'member' }, 201)).key;
  const token = await identityProvider.token('bench-user', { role: 'member' });
  /** @param {number | null} requestsPerMinute */
  const limitTenant = (requestsPerMinute) => admin.api('PUT', '/api/limits', { tenant: { requestsPerMinute } });
  const open = () => timedGet(url, '/bench/open', null);
  /** @param {string} credential */
  const signed = (credential) => () => timedGet(url, '/bench/signed', credential);
  const unlimited = {
    open,
    apiKeys: signed(key),
    issued: signed(issuedKey),
    jwt: signed(token),
    d1: () => timedGet(url, '/bench/d1', null),
    object: () => timedGet(url, '/floor/ping', null, 'pong'),
  };
  const limited = { openLimited: open, limited: signed(key) };

  /** One repetition: the unlimited arms side by side, then the limited ones, the limit set meanwhile. */
  const phases = async (/** @type {number} */ runs) => {
    const first = await repeat({ repetitions: 1, runs, arms: unlimited });
    await limitTenant(HIGH_LIMIT);
    try {
      return { ...first, ...(await repeat({ repetitions: 1, runs, arms: limited })) };
    } finally {
      await limitTenant(null);
    }
  };
  await phases(WARM_UP);
  /** @type {import('../repetitions.mjs').Repeated<number[]>} */
  const results = Object.fromEntries([...Object.keys(unlimited), ...Object.keys(limited)].map((arm) => [arm, []]));
  for (let repetition = 0; repetition < repetitions; repetition++) {
    const phase = await phases(SAMPLES);
    for (const [arm, runs] of Object.entries(phase)) results[arm]?.push(...runs);
  }

  /** @param {(of: (arm: string) => number) => number} derive */
  const added = (derive) => derived(results, derive, all);
  const overOpen = {
    apiKeys: added((of) => of('apiKeys') - of('open')),
    issued: added((of) => of('issued') - of('open')),
    jwt: added((of) => of('jwt') - of('open')),
    limited: added((of) => of('limited') - of('openLimited')),
  };
  const overApiKeys = {
    issued: added((of) => of('issued') - of('apiKeys')),
    jwt: added((of) => of('jwt') - of('apiKeys')),
    limited: added((of) => of('limited') - of('openLimited') - (of('apiKeys') - of('open'))),
  };
  /** @type {{ label: string, open: import('../stats.mjs').Spread, apiKeys: import('../stats.mjs').Spread | null }[]} */
  const credentials = [
    { label: "an `API_KEYS` key (today's path)", open: overOpen.apiKeys, apiKeys: null },
    {
      label: 'a key issued through the API (`sak_…`, its state from its tenant object)',
      open: overOpen.issued,
      apiKeys: overApiKeys.issued,
    },
    { label: "an identity provider's JWT (RS256, key set cached)", open: overOpen.jwt, apiKeys: overApiKeys.jwt },
    {
      label: 'the `API_KEYS` key, its tenant limited (an RPC to the Tenant object)',
      open: overOpen.limited,
      apiKeys: overApiKeys.limited,
    },
  ];
  const hops = [
    ['For scale: one bare D1 query (`GET /bench/d1`)', added((of) => of('d1') - of('open'))],
    ['For scale: a call to a live Durable Object (`GET /floor/ping`)', added((of) => of('object') - of('open'))],
  ];
  /** What the requirement is judged on: the cost over today's, or for today's path its whole cost. */
  const judged = (/** @type {(typeof credentials)[number]} */ { open, apiKeys }) => apiKeys ?? open;
  const fetches = identityProvider.keySetFetches();
  const markdown = `## Sign-in

What signing in adds to a request: \`GET /bench/signed\` (the sign-in middleware, its rate-limit admission
included, then \`ok\`) against \`GET /bench/open\` (\`ok\` with no sign-in), sequential requests on one
keep-alive connection, ${repetitions} repetitions of ${SAMPLES} requests of each, interleaved. The limited key runs in a second
phase of each repetition, with a requests-per-minute limit of ${HIGH_LIMIT.toLocaleString('en')} set for its tenant, beside
\`/bench/open\` again. The identity provider's key set was fetched ${fetches === 1 ? 'once' : `${fetches} times`} in all.

${table(
  ['request', 'requests', 'median (ms)', 'p95 (ms)'],
  [
    pooledRow(results, '`GET /bench/open`, no sign-in', 'open', all),
    pooledRow(results, '`GET /bench/signed` with an `API_KEYS` key', 'apiKeys', all),
    pooledRow(results, '… with an issued key', 'issued', all),
    pooledRow(results, "… with an identity provider's JWT", 'jwt', all),
    pooledRow(results, '`GET /bench/d1`, one D1 query, no sign-in', 'd1', all),
    pooledRow(results, '`GET /floor/ping`, a live Durable Object answering, no sign-in', 'object', all),
    pooledRow(results, '`GET /bench/open`, no sign-in (second phase)', 'openLimited', all),
    pooledRow(results, '`GET /bench/signed` with the `API_KEYS` key, its tenant limited', 'limited', all),
  ],
)}

Added per request (ms; each repetition's median less its median of the other, then the median over
repetitions with its IQR). Today's check is the \`API_KEYS\` path: the requirement is that signing in adds at
most ${TARGET_MS} ms (median) to it. For the \`API_KEYS\` key itself its whole cost over no sign-in is shown, which is at
least what it adds over today's. The two rows for scale sign nothing in: what one D1 query and one call
to a Durable Object add to a request under wrangler dev (local D1 and objects; deployed, both are hops
of their own): a sign-in reading D1 on every request would add the first, one asking the Tenant object
(an issued key's state, a limited tenant's count) adds the second.

${table(
  ['credential', 'over no sign-in', 'over the `API_KEYS` path', `at most ${TARGET_MS} ms over today's`],
  credentials
    .map((credential) => [
      credential.label.charAt(0).toUpperCase() + credential.label.slice(1),
      withIqr(credential.open),
      credential.apiKeys === null ? '—' : withIqr(credential.apiKeys),
      verdict(judged(credential).median <= TARGET_MS),
    ])
    .concat(hops.map(([label, spread]) => [label, withIqr(spread), '—', '—'])),
)}
`;
  const targets = credentials.map((credential) => ({
    target: `Sign-in with ${credential.label}: at most ${TARGET_MS} ms per request over today's check (${credential.apiKeys === null ? 'its whole cost over no sign-in' : 'over the `API_KEYS` path'})`,
    measured: `${spreadText(judged(credential), (value) => ms(value, 2))} ms`,
    met: judged(credential).median <= TARGET_MS,
  }));
  return { markdown, targets };
}
