/**
 * The page at `/docs`: Scalar's API reference of `/openapi.json`. It runs on the origin where the
 * inspector keeps its API key, so the only script it runs is one exact, reviewed file: Scalar's
 * standalone bundle at a pinned version, served by this Worker from its own assets and loaded with
 * Subresource Integrity (a changed byte and the browser refuses it), and the short inline start,
 * allowed by its hash. The Content-Security-Policy admits nothing else: no other script (not even
 * this origin's others), no other origin to connect to (the bundle's telemetry and fonts stay off),
 * no frame, no form.
 *
 * Why served from here rather than a CDN: the page must work offline and where a CDN is blocked.
 * `scripts/build-inspector.mjs` copies the bundle out of the `@scalar/api-reference` devDependency
 * (pinned to SCALAR_VERSION) into `inspector/public/vendor/`, under a name carrying the version;
 * `test/node/http/api-reference-asset.test.ts` checks that the installed file is the one
 * SCALAR_INTEGRITY names. To move to another version, install it and change both constants:
 * `node scripts/scalar-integrity.mjs` prints them for the installed package. If the script still
 * cannot load, the page says so and links the OpenAPI document itself.
 */

export const SCALAR_VERSION = '1.76.0';
/** Where the Worker's assets serve the bundle (inspector/public/vendor/, built from node_modules). */
export const SCALAR_SCRIPT = `/vendor/scalar-api-reference-${SCALAR_VERSION}.js`;
export const SCALAR_INTEGRITY = 'sha384-oH1C0RwqcwbVXkC+r8A+4qRoyEUQdtxAzOwumkxZtQBBcsy61FOoPt7B50OVJYYQ';

const CONFIGURATION = { url: '/openapi.json', withDefaultFonts: false, telemetry: false };
/** Starts the reference, or, when the bundle did not load (blocked, changed, missing), says so. */
const START = [
  "document.getElementById('docs-loading').remove();",
  `if (window.Scalar) Scalar.createApiReference('#app', ${JSON.stringify(CONFIGURATION)});`,
  "else document.getElementById('docs-failed').hidden = false;",
].join('\n');

export const API_REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Standard Agents API</title>
  </head>
  <body>
    <p id="docs-loading">Loading the API reference…</p>
    <div id="docs-failed" role="alert" hidden>
      <h1>Standard Agents API</h1>
      <p>The interactive reference could not load in this browser. The OpenAPI document it shows is at
      <a href="/openapi.json">/openapi.json</a>.</p>
    </div>
    <noscript><p>The interactive reference needs JavaScript. The OpenAPI document is at
    <a href="/openapi.json">/openapi.json</a>.</p></noscript>
    <div id="app"></div>
    <script src="${SCALAR_SCRIPT}" integrity="${SCALAR_INTEGRITY}" crossorigin="anonymous"></script>
    <script>${START}</script>
  </body>
</html>
`;

async function sha256Base64(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(digest)));
}

let startHash: Promise<string> | null = null;

/**
 * The page's policy for the origin it is served on: Scalar's one file (a source naming its full
 * path admits that file alone) and the start script by hash; its own styles (it injects them); this
 * origin to connect to.
 */
export async function apiReferencePolicy(origin: string): Promise<string> {
  startHash ??= sha256Base64(START);
  const hash = await startHash;
  return [
    "default-src 'none'",
    `script-src ${origin}${SCALAR_SCRIPT} 'sha256-${hash}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
