/**
 * The configuration files of a new project: package.json, wrangler.toml with every binding the
 * runtime uses, tsconfig.json, .dev.vars for local development, and .gitignore. docs/deploy.md shows
 * them as written here (a test compares the two).
 */
import type { ProjectVersions } from './versions.js';

/** Where the package's files are, from the project's folder. */
const PACKAGE_DIR = './node_modules/standard-agents-cloudflare';

export function packageJson(name: string, versions: ProjectVersions): string {
  const manifest = {
    name,
    private: true,
    type: 'module',
    scripts: { dev: 'wrangler dev', deploy: 'wrangler deploy', typecheck: 'tsc --noEmit' },
    dependencies: { 'standard-agents-cloudflare': versions.runtime, zod: versions.zod },
    devDependencies: {
      '@cloudflare/workers-types': versions.workersTypes,
      typescript: versions.typescript,
      wrangler: versions.wrangler,
    },
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export function wranglerToml(name: string): string {
  return `# ${name}: agents served by the Standard Agents runtime on Cloudflare Workers.
name = "${name}"
main = "src/index.ts"
compatibility_date = "2026-04-20"
compatibility_flags = ["nodejs_compat"]

# Agent code imports the authoring API as \`@standardagents/spec\`.
[alias]
"@standardagents/spec" = "${PACKAGE_DIR}/dist/src/spec/index.js"
# The MCP SDK imports Ajv, which cannot run on workerd and is never used; 290 KiB less.
"ajv" = "${PACKAGE_DIR}/dist/src/ajv-unavailable.js"
"ajv-formats" = "${PACKAGE_DIR}/dist/src/ajv-unavailable.js"

# One Durable Object per thread, on SQLite storage: its log, variables and stream.
[[durable_objects.bindings]]
name = "THREADS"
class_name = "Thread"

[[migrations]]
tag = "v1"
new_sqlite_classes = ["Thread"]

# One Durable Object per tenant: its rate limits and spend quotas (TENANT_LIMITS, PUT /api/limits).
# Without it nothing is limited.
[[durable_objects.bindings]]
name = "TENANTS"
class_name = "Tenant"

[[migrations]]
tag = "v2"
new_sqlite_classes = ["Tenant"]

# Each thread's files. \`wrangler deploy\` creates the bucket the first time.
[[r2_buckets]]
binding = "FILES"
bucket_name = "${name}-files"

# The index of threads, for listing them. \`wrangler deploy\` creates the database the first time.
[[d1_databases]]
binding = "DB"
database_name = "${name}-index"

# MCP clients signing in with OAuth: their registrations, grants and hashed tokens. Without it /mcp
# takes keys and identity-provider tokens only. \`wrangler deploy\` creates the namespace the first time.
[[kv_namespaces]]
binding = "OAUTH_KV"

# An isolate of its own for each program \`run_code\` and \`state.runCode\` run.
[[worker_loaders]]
binding = "LOADER"

[observability]
enabled = true

# The inspector page at /, from the package; the Worker answers its own paths first.
[assets]
directory = "${PACKAGE_DIR}/inspector/public"
binding = "ASSETS"
run_worker_first = ["/", "/api/*", "/api", "/mcp", "/mcp/*", "/oauth/*", "/.well-known/oauth-*", "/openapi.json", "/docs", "/docs/*"]
`;
}

export function tsconfigJson(): string {
  return `{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ES2022",
    "moduleResolution": "Bundler",
    // The Workers runtime's globals come from @cloudflare/workers-types, not from "DOM".
    "lib": ["ES2023"],
    "types": ["@cloudflare/workers-types"],
    "strict": true,
    // Dependencies' own declarations are written against other settings: check only this project.
    "skipLibCheck": true,
    "noEmit": true,
    "paths": {
      "@standardagents/spec": ["${PACKAGE_DIR}/dist/src/spec/index.d.ts"]
    }
  },
  "include": ["src", "agents"]
}
`;
}

export function devVars(): string {
  return `# Local development only: wrangler dev reads this file, wrangler deploy never sends it.
# The key the API and the inspector accept (Authorization: Bearer dev-key).
API_KEYS=dev-key
# Seals the secrets threads keep. A deployed Worker needs its own: npx wrangler secret put SECRETS_KEY
SECRETS_KEY=local-development-only-secrets-key
# A model without a key is answered by an offline demo model, which calls the tools you name.
DEMO_MODE=true
# For a real model, set its key (and MODEL for an OpenAI-compatible one), e.g.:
# OPENAI_API_KEY=sk-...
# MODEL=gpt-4o-mini
`;
}

export function gitignore(): string {
  return `node_modules/
.wrangler/
.dev.vars
`;
}
