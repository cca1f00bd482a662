// The bindings tests reach through `import { env } from 'cloudflare:workers'`.
import type { RuntimeEnv } from '../../src/thread/bindings/env.js';

declare global {
  namespace Cloudflare {
    interface Env extends RuntimeEnv {
      /** The local outside-API service of global-setup.ts. */
      SERVICES_URL: string;
      /** A local server no test allows: the tools must never reach it. */
      INTRANET_URL: string;
      /** A local port nothing listens on: connections to it are refused. */
      CLOSED_URL: string;
    }
  }
}
