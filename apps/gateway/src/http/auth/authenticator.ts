import type { Principal } from './principal.js';

/**
 * Resolves an API token to its principal. `null` means the token is unknown or disabled; a
 * thrown error means the answer is not known (e.g. the identity service is down) and becomes a
 * 503, never a 401.
 */
export interface Authenticator {
  authenticate(token: string): Promise<Principal | null>;
}
