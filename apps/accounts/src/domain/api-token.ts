import { createHash, randomBytes } from 'node:crypto';

/**
 * API tokens are 40 hex characters (as DRF's TokenAuthentication issues). Only a SHA-256 of the
 * token is stored: the token itself is shown once, when it is made. A fast hash is enough because
 * the token carries 160 random bits; there is nothing to brute-force.
 */
export function newApiToken(): string {
  return randomBytes(20).toString('hex');
}

export function hashApiToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The first characters, safe to list so an operator can tell tokens apart. */
export function tokenPrefix(token: string): string {
  return token.slice(0, 6);
}
