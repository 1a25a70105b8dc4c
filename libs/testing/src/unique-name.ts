import { randomBytes } from 'node:crypto';

/**
 * A name no other test run uses, made of [a-z0-9_] so it is valid as a Postgres identifier, a NATS
 * subject token and (upper-cased) a JetStream stream or consumer name.
 */
export function uniqueName(prefix: string): string {
  const safePrefix = prefix.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  return `${safePrefix}_${randomBytes(4).toString('hex')}`;
}
