/**
 * Stands in for `ajv` and `ajv-formats` in the Worker bundle (wrangler.toml `[alias]`). The MCP SDK
 * imports Ajv for its default JSON Schema validator, which compiles schemas to code: workerd forbids
 * that, so the runtime always hands the SDK its Workers validator (`@cfworker/json-schema`) and Ajv
 * is never constructed. Aliasing it here keeps about 290 KiB of code that could never run (Ajv, its
 * formats, fast-uri) out of the Worker. A package user who skips the alias only ships more bytes.
 */
const MESSAGE =
  'Ajv cannot run on workerd (it compiles schemas to code): pass jsonSchemaValidator: new CfWorkerJsonSchemaValidator()';

export default class AjvUnavailable {
  constructor() {
    throw new Error(MESSAGE);
  }
}

/** `ajv-formats`' default export. */
export function addFormats(): never {
  throw new Error(MESSAGE);
}
