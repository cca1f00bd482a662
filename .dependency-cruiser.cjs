/**
 * The architecture rules `npm run lint` enforces (docs/architecture.md): the layers import downwards
 * only, there is no import cycle (type-only imports count), a folder is entered only through its
 * `index.ts` (its door), nothing the Worker, the benchmark or the local harness runs imports
 * test code, and the client and the inspector page import no runtime code; heavy dependencies that
 * only some threads use load on first use, not when the Worker starts.
 */
module.exports = {
  forbidden: [
    {
      name: 'client-stands-alone',
      comment:
        'client/ is its own entry point for browsers, Node and Workers: it speaks HTTP to the runtime and imports none of it.',
      severity: 'error',
      from: { path: '^client/' },
      to: { path: ['^src/', '^cloudflare:'] },
    },
    {
      name: 'inspector-uses-the-client',
      comment: 'The inspector page talks to the server through the client library and nothing else.',
      severity: 'error',
      from: { path: '^inspector/' },
      to: { path: ['^src/', '^cloudflare:'] },
    },
    {
      name: 'init-stands-alone',
      comment:
        'init/ (npx standard-agents-cloudflare init) runs in Node and only writes files: it imports no runtime, client or page.',
      severity: 'error',
      from: { path: '^init/' },
      to: { path: ['^src/', '^client/', '^inspector/', '^cloudflare:'] },
    },
    {
      name: 'heavy-dependencies-load-on-first-use',
      comment:
        'The MCP SDK, the program compilers (sucrase, acorn) and just-bash take long to load and only some threads use them: src/ imports them with import() on first use, or as values only in the modules that hold them alone: a Worker that never uses them starts without evaluating them (bench: npm run bench -- cold-start).',
      severity: 'error',
      from: {
        path: '^src/',
        pathNot: [
          '^src/tools/mcp/mcp-client-sdk[.]ts$',
          '^src/http/mcp/mcp-server-sdk[.]ts$',
          '^src/engine/sandbox/program-compilers[.]ts$',
        ],
      },
      to: {
        path: 'node_modules/(@modelcontextprotocol/sdk|sucrase|acorn|acorn-walk|just-bash)/',
        dependencyTypesNot: ['type-only', 'type-import', 'dynamic-import'],
      },
    },
    {
      name: 'first-use-modules-load-on-first-use',
      comment:
        'The modules holding a heavy dependency alone are imported with import() when first needed, never at startup.',
      severity: 'error',
      from: { path: '^src/' },
      to: {
        path: '^src/(tools/mcp/mcp-client-sdk|http/mcp/mcp-server-sdk|engine/sandbox/program-compilers)[.]ts$',
        dependencyTypesNot: ['type-only', 'type-import', 'dynamic-import'],
      },
    },
    {
      name: 'no-cycles',
      comment: 'Import cycles, type-only ones included: a newcomer cannot tell which file comes first.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'spec-stands-alone',
      comment: 'src/spec is what user code imports: it depends on no runtime layer and no Cloudflare module.',
      severity: 'error',
      from: { path: '^src/spec/' },
      to: { path: ['^src/(engine|tools|providers|thread|http)/', '^cloudflare:'] },
    },
    {
      name: 'engine-is-pure',
      comment: 'src/engine knows nothing of Durable Objects, R2, D1, HTTP, the built-in tools or providers.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: ['^src/(tools|providers|thread|http)/', '^cloudflare:'] },
    },
    {
      name: 'tools-and-providers-below-thread',
      comment: 'Tools and providers run inside a thread but never reach into it or the HTTP layer.',
      severity: 'error',
      from: { path: '^src/(tools|providers)/' },
      to: { path: ['^src/(thread|http)/', '^cloudflare:'] },
    },
    {
      name: 'providers-do-not-use-tools',
      severity: 'error',
      from: { path: '^src/providers/' },
      to: { path: '^src/tools/' },
    },
    {
      name: 'thread-below-http',
      severity: 'error',
      from: { path: '^src/thread/' },
      to: { path: '^src/http/' },
    },
    {
      name: 'through-the-door',
      comment:
        'A file imports files of its own folder; any other folder only through its index.ts (src/spec also has internal.ts, its door for the runtime).',
      severity: 'error',
      from: { path: '^(src/.+)/[^/]+$' },
      to: {
        path: '^src/',
        pathNot: ['^$1/[^/]+$', '/index\\.ts$', '^src/spec/internal\\.ts$'],
      },
    },
    {
      name: 'no-test-code-in-the-product',
      comment: 'The Worker and the benchmark never import test code.',
      severity: 'error',
      from: { path: '^(src|bench|agents|harness)/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are dependencies too: they close cycles just as well.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // node_modules stays in the graph, unfollowed, for the rule on what loads at startup.
    exclude: { path: '^\\.wrangler/' },
  },
};
