/**
 * Encryption of secret variables at rest (VAR-3): AES-GCM through WebCrypto, under a key derived per
 * thread (HKDF-SHA-256 with the thread id as salt) from the SECRETS_KEY Worker secret. A copied row
 * is useless in another thread, and the master key never touches storage.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

export class SecretBox {
  private constructor(private readonly key: CryptoKey) {}

  static async forThread(masterKey: string, threadId: string): Promise<SecretBox> {
    const material = await crypto.subtle.importKey('raw', encoder.encode(masterKey), 'HKDF', false, ['deriveKey']);
    const key = await crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(threadId), info: encoder.encode('thread-secrets/v1') },
      material,
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    );
    return new SecretBox(key);
  }

  /** `base64(iv || ciphertext)`. */
  async seal(plain: string): Promise<string> {
    const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, this.key, encoder.encode(plain)),
    );
    const out = new Uint8Array(IV_BYTES + sealed.byteLength);
    out.set(iv);
    out.set(sealed, IV_BYTES);
    return toBase64(out);
  }

  async open(sealed: string): Promise<string> {
    const bytes = fromBase64(sealed);
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes.slice(0, IV_BYTES) },
      this.key,
      bytes.slice(IV_BYTES),
    );
    return decoder.decode(plain);
  }
}
