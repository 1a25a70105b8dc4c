import { createHash, randomBytes } from 'node:crypto';

/**
 * The customer's self-service sign-in (gaps.md §11): a link holding a single-use token valid one
 * hour, for an account recipient's e-mail while the organization's self_service feature is on.
 * Using the link opens a session (docs/api.md "Self-service"). Times are the organization's: on a
 * test clock, its clock decides when a link or session runs out.
 */
export const SELF_SERVICE_LINK_LIFETIME_MS = 60 * 60 * 1000;
/** A session lasts two hours from sign-in (or until sign-out): long enough to add a card. */
export const SELF_SERVICE_SESSION_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** The gateways whose card-entry page the self-service page can send a customer to. */
export const SELF_SERVICE_CARD_GATEWAYS: readonly string[] = ['noop', 'cardgw_a', 'cardgw_a_new'];
/** Of those, the ones that work only with the organization's credentials (noop needs none). */
const NEEDS_CREDENTIALS: readonly string[] = ['cardgw_a', 'cardgw_a_new'];

/** 256 random bits, URL-safe: the token rides in a link and in a cookie. */
export function newSelfServiceToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Only a SHA-256 of a token is stored; 256 random bits leave nothing to brute-force. */
export function hashSelfServiceToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** E-mail addresses are matched as people type them: case and surrounding spaces do not count. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export type LinkState = 'valid' | 'used' | 'expired';

/** A used link stays used; an unused one is valid until (not at) its expiry. */
export function linkState(link: { signed_in_at?: Date | null; link_expires_at: Date }, now: Date): LinkState {
  if (link.signed_in_at) return 'used';
  return now.getTime() < link.link_expires_at.getTime() ? 'valid' : 'expired';
}

/** A session is open from sign-in until its expiry or sign-out, whichever comes first. */
export function sessionIsOpen(
  session: { session_expires_at?: Date | null; signed_out_at?: Date | null },
  now: Date,
): boolean {
  if (session.signed_out_at || !session.session_expires_at) return false;
  return now.getTime() < session.session_expires_at.getTime();
}

/**
 * The gateway a customer adds a card through: the first of the account's payment gateway accounts
 * (in their order) on a gateway with a card-entry page that works for the organization (noop
 * always; the others once the organization has their credentials), or none. It is the
 * organization's choice, made through the API, never the customer's: a noop card costs nothing and
 * pays every invoice, so the page offers noop only to an account the organization set up with it.
 */
export function selfServiceCardGateway(
  gatewayAccounts: ReadonlyArray<{ payment_gateway: string }>,
  credentialed: ReadonlySet<string>,
): string | null {
  const usable = (gateway: string) =>
    SELF_SERVICE_CARD_GATEWAYS.includes(gateway) && (!NEEDS_CREDENTIALS.includes(gateway) || credentialed.has(gateway));
  return gatewayAccounts.find((account) => usable(account.payment_gateway))?.payment_gateway ?? null;
}
