import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecret, SealingKeyError, sealingKey, sealSecret } from './sealed-secret.js';

describe('sealed secrets', () => {
  const key = randomBytes(32);

  it('opens what it sealed, and never shows the plaintext in the sealed form', () => {
    const sealed = sealSecret(key, '{"secret_key":"sk_test_123"}');
    expect(sealed).not.toContain('sk_test');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(openSecret(key, sealed)).toBe('{"secret_key":"sk_test_123"}');
  });

  it('seals the same text differently each time', () => {
    expect(sealSecret(key, 'x')).not.toBe(sealSecret(key, 'x'));
  });

  it('refuses another key and an altered value', () => {
    const sealed = sealSecret(key, 'secret');
    expect(() => openSecret(randomBytes(32), sealed)).toThrow(SealingKeyError);
    const parts = sealed.split('.');
    const altered = [...parts.slice(0, 3), `${parts[3]!.slice(0, -2)}AA`].join('.');
    expect(() => openSecret(key, altered)).toThrow(SealingKeyError);
    expect(() => openSecret(key, 'plain')).toThrow('Not a sealed secret.');
  });

  it('reads the key as hex or base64 and names the variable when it is wrong', () => {
    const raw = randomBytes(32);
    expect(sealingKey(raw.toString('hex')).equals(raw)).toBe(true);
    expect(sealingKey(raw.toString('base64')).equals(raw)).toBe(true);
    expect(() => sealingKey(undefined)).toThrow('GATEWAY_CREDENTIALS_KEY is not set');
    expect(() => sealingKey('abcd')).toThrow('must be 32 bytes');
  });
});
