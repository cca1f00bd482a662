/**
 * The page at `/docs`: Scalar's API reference of `/openapi.json`. It runs on the origin where the
 * inspector keeps its API key, so the only script it runs is one exact, reviewed file: Scalar's
 * standalone bundle at a pinned version, loaded with Subresource Integrity (a changed byte and the
 * browser refuses it), and the one-line inline call that starts it, allowed by its hash. The
 * Content-Security-Policy admits nothing else: no other script, no other origin to connect to (the
 * bundle's telemetry and fonts stay off), no frame, no form.
 *
 * Why a CDN with SRI rather than a copy served from the Worker: SRI gives the same guarantee (those
 * bytes or nothing), while a copy would mean committing a 4.8 MB bundle or installing the bundle's
 * package and its ~300 dependencies to copy one file out of it. To move to another version, change
 * both constants: `node scripts/scalar-integrity.mjs <version>` prints the integrity of that version's
 * file from its npm package, the same bytes the CDN serves.
 */

export const SCALAR_VERSION = '1.76.0';
export const SCALAR_SCRIPT = `https://cdn.jsdelivr.net/npm/@scalar/api-reference@${SCALAR_VERSION}/dist/browser/standalone.js`;
export const SCALAR_INTEGRITY = 'sha384-oH1C0RwqcwbVXkC+r8A+4qRoyEUQdtxAzOwumkxZtQBBcsy61FOoPt7B50OVJYYQ';

const CONFIGURATION = { url: '/openapi.json', withDefaultFonts: false, telemetry: false };
const START = `Scalar.createApiReference('#app', ${JSON.stringify(CONFIGURATION)})`;

export const API_REFERENCE_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Standard Agents API</title>
  </head>
  <body>
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

let policy: Promise<string> | null = null;

/** The page's policy: Scalar's file and the start line; its own styles (it injects them); this origin. */
export function apiReferencePolicy(): Promise<string> {
  policy ??= sha256Base64(START).then((hash) =>
    [
      "default-src 'none'",
      `script-src ${SCALAR_SCRIPT} 'sha256-${hash}'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
      "frame-ancestors 'none'",
    ].join('; '),
  );
  return policy;
}
