import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const spec = fileURLToPath(new URL('./src/spec/index.ts', import.meta.url));

/**
 * Files known to run longest start first. Without vitest's cache of durations (a fresh clone, as CI
 * runs) files start largest first, and the sandbox's runaway programs, a short file running each
 * program to its limit for about 100 s, started last and ran alone at the end of the workerd tests.
 */
const LONGEST_FIRST = ['test/workers/sandbox-programs.test.ts', 'test/workers/egress.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.findIndex((path) => file.moduleId.endsWith(path));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  resolve: { alias: { '@standardagents/spec': spec } },
  test: {
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // Pure engine logic, in Node.
        resolve: { alias: { '@standardagents/spec': spec } },
        test: { name: 'node', include: ['test/node/**/*.test.ts'], environment: 'node', testTimeout: 20_000 },
      },
      {
        // Durable Object and HTTP behaviour, in workerd.
        resolve: { alias: { '@standardagents/spec': spec } },
        plugins: [
          cloudflareTest(({ inject }) => ({
            main: './test/workers/worker.ts',
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                API_KEYS: 'test-key-alice,test-key-bob',
                SECRETS_KEY: 'test-secrets-master-key',
                // Spans record contents (scrubbed) in every test: the secret canaries cover them too.
                OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
                // Models with provider 'openai' reach the local server of global-setup.ts.
                OPENAI_BASE_URL: String(inject('modelBaseUrl')),
                OPENAI_API_KEY: 'test-model-key',
                MODEL: 'test-model',
                // Models with provider 'google' reach the local Gemini server of global-setup.ts.
                GOOGLE_BASE_URL: String(inject('googleBaseUrl')),
                GOOGLE_API_KEY: 'test-google-key',
                // Models with provider 'anthropic' reach the local Messages API server of global-setup.ts.
                ANTHROPIC_BASE_URL: String(inject('anthropicBaseUrl')),
                ANTHROPIC_API_KEY: 'test-anthropic-key',
                SERVICES_URL: String(inject('servicesUrl')),
                INTRANET_URL: String(inject('intranetUrl')),
                // The egress policy refuses 127.0.0.1 (issue 11); the fake web services are a
                // development host. The intranet server stays refused.
                // The MCP test servers are development hosts too.
                // So are a closed local port and a name that never resolves, to show how a failed
                // connection reads.
                EGRESS_ALLOW_HOSTS: ['servicesUrl', 'mcpUrl', 'mcpOAuthUrl', 'closedUrl']
                  .map((name) => new URL(String(inject(name as 'servicesUrl'))).host)
                  .concat('no-such-host.invalid')
                  .join(','),
                CLOSED_URL: String(inject('closedUrl')),
                // Where the OAuth authorization server sends the user back (LOCK-4); tests follow it by hand.
                PUBLIC_URL: 'https://agents.test',
              },
            },
          })),
        ],
        test: {
          name: 'workers',
          include: ['test/workers/**/*.test.ts'],
          // Deadlines, not expectations: the first request of a file starts workerd, slow on a busy machine.
          testTimeout: 30_000,
          hookTimeout: 60_000,
          globalSetup: ['./test/workers/global-setup.ts'],
        },
      },
      {
        // A real `wrangler dev` against a local OpenAI-compatible server.
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        // The inspector page in Chromium (playwright-core) against a real `wrangler dev`.
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
