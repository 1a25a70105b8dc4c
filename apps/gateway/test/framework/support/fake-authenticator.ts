import type { Authenticator, Principal } from '../../../src/http/index.js';

export const ACME_TOKEN = 'acme-token-1234567890';
export const DISABLED_TOKEN = 'disabled-token-0987654321';

export const ACME: Principal = {
  organizationId: 'org-acme',
  apiUserId: 'api-user-acme',
  apiUserName: 'API USER',
  rateLimitPerMinute: 1000,
  permissions: ['billing_read'],
};

/**
 * Two tokens, as the identity service would answer for them: one of Acme's API user, one that
 * was disabled (the service then answers "no such principal").
 */
export class FakeAuthenticator implements Authenticator {
  calls = 0;
  private readonly tokens = new Map<string, { principal: Principal; disabled: boolean }>();

  constructor(acme: Principal = ACME) {
    this.tokens.set(ACME_TOKEN, { principal: acme, disabled: false });
    this.tokens.set(DISABLED_TOKEN, { principal: { ...acme, apiUserId: 'api-user-disabled' }, disabled: true });
  }

  async authenticate(token: string): Promise<Principal | null> {
    this.calls++;
    const entry = this.tokens.get(token);
    return entry && !entry.disabled ? entry.principal : null;
  }
}
