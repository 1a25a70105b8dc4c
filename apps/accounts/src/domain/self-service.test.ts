import { describe, expect, it } from 'vitest';
import {
  hashSelfServiceToken,
  linkState,
  newSelfServiceToken,
  normalizeEmail,
  selfServiceCardGateway,
  sessionIsOpen,
} from './self-service.js';

const at = (iso: string) => new Date(iso);

describe('self-service links and sessions', () => {
  it('makes 256-bit URL-safe tokens, stored as their SHA-256', () => {
    const token = newSelfServiceToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newSelfServiceToken()).not.toBe(token);
    expect(hashSelfServiceToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('matches e-mails without case or surrounding spaces', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('a link is valid until its expiry, then expired; once used it is used', () => {
    const link = { signed_in_at: null, link_expires_at: at('2026-01-01T10:00:00Z') };
    expect(linkState(link, at('2026-01-01T09:59:59.999Z'))).toBe('valid');
    expect(linkState(link, at('2026-01-01T10:00:00Z'))).toBe('expired');
    expect(linkState({ ...link, signed_in_at: at('2026-01-01T09:30:00Z') }, at('2026-01-01T09:31:00Z'))).toBe('used');
  });

  it('a session is open until its expiry or sign-out', () => {
    const session = { session_expires_at: at('2026-01-01T12:00:00Z'), signed_out_at: null };
    expect(sessionIsOpen(session, at('2026-01-01T11:59:59Z'))).toBe(true);
    expect(sessionIsOpen(session, at('2026-01-01T12:00:00Z'))).toBe(false);
    expect(sessionIsOpen({ ...session, signed_out_at: at('2026-01-01T11:00:00Z') }, at('2026-01-01T11:01:00Z'))).toBe(
      false,
    );
    expect(sessionIsOpen({ session_expires_at: null, signed_out_at: null }, at('2026-01-01T11:00:00Z'))).toBe(false);
  });

  it("adds cards through the first of the account's gateways with a card-entry page the organization can use", () => {
    const none = new Set<string>();
    const stripe = new Set(['cardgw_a']);
    expect(selfServiceCardGateway([], stripe)).toBeNull();
    expect(selfServiceCardGateway([{ payment_gateway: 'cardgw_b' }], stripe)).toBeNull();
    expect(selfServiceCardGateway([{ payment_gateway: 'cardgw_b' }, { payment_gateway: 'cardgw_a' }], stripe)).toBe(
      'cardgw_a',
    );
    // cardgw_a without the organization's credentials cannot take a card: the next one does.
    expect(selfServiceCardGateway([{ payment_gateway: 'cardgw_a' }], none)).toBeNull();
    expect(selfServiceCardGateway([{ payment_gateway: 'cardgw_a_new' }, { payment_gateway: 'noop' }], stripe)).toBe(
      'noop',
    );
    expect(selfServiceCardGateway([{ payment_gateway: 'noop' }, { payment_gateway: 'cardgw_a' }], stripe)).toBe('noop');
  });
});
