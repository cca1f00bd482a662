/**
 * Signing secrets (WH-3): `whsec_` and the base64 of 32 random bytes, the form the Standard
 * Webhooks libraries take as they are, so a receiver passes the secret to `new Webhook(secret)`.
 * Ids: `wh_` for an endpoint, `msg_` for a delivery (the `webhook-id` header, the same on every try).
 */

const SECRET_BYTES = 32;

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function newWebhookSecret(): string {
  return `whsec_${base64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;
}

/** A random id with `prefix`: 24 lowercase hex digits after it. */
function newId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `${prefix}${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

export const newWebhookId = (): string => newId('wh_');
export const newDeliveryId = (): string => newId('msg_');
