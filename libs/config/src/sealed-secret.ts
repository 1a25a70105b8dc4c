import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets kept at rest by one service and opened by another (payment gateway credentials: the
 * accounts admin command line seals them, the payments service opens them). AES-256-GCM with a
 * key the operator gives both in the environment: a copy of the database alone reveals nothing,
 * and a tampered value fails to open instead of yielding garbage.
 *
 * Format: `v1.<iv>.<tag>.<ciphertext>`, each part base64url.
 */

/** The environment variable holding the key: 32 bytes, as 64 hex digits or base64. */
export const SEALING_KEY_VARIABLE = 'GATEWAY_CREDENTIALS_KEY';

export class SealingKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealingKeyError';
  }
}

/** The key from its text form; throws SealingKeyError naming the variable when it is unusable. */
export function sealingKey(text: string | undefined): Buffer {
  if (!text) throw new SealingKeyError(`${SEALING_KEY_VARIABLE} is not set (32 random bytes, hex or base64).`);
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) {
    throw new SealingKeyError(`${SEALING_KEY_VARIABLE} must be 32 bytes (64 hex digits or base64); got ${key.length}.`);
  }
  return key;
}

export function sealSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(
    '.',
  );
}

/** Opens what sealSecret made with the same key; throws when the key differs or the value was altered. */
export function openSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || iv === undefined || tag === undefined || body === undefined) {
    throw new SealingKeyError('Not a sealed secret.');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SealingKeyError(`The sealed secret does not open with this ${SEALING_KEY_VARIABLE}.`);
  }
}
