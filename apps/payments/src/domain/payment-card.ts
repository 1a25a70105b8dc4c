import { startOfLocalDay } from '@billing/clock';

/** A payment card as the service keeps it (api-spec "Payment card"): never a card number, only what the gateway tells. */
export interface PaymentCardView {
  uuid: string;
  account: string;
  active: boolean;
  brand: string;
  /** Masked: only the last four digits visible. */
  card_number: string;
  month: number;
  year: number;
  name: string;
  payment_gateway: string;
  payment_gateway_id: string;
  created_date: Date;
  version: number;
}

/** What a gateway says about a card behind a token (gateways/ adapters). */
export interface CardDetails {
  brand: string;
  last4: string;
  month: number;
  year: number;
  name: string;
  /** The gateway's id of the card, used to charge it. */
  gatewayId: string;
  /** The gateway's customer the card belongs to, when it has one (cardgw_a charges need it). */
  gatewayCustomer: string | null;
}

/** `**** **** **** 4242`: the spec's masked number, only the last four digits visible. */
export function maskedCardNumber(last4: string): string {
  return `**** **** **** ${last4}`;
}

export interface PaymentCardListFilter {
  account?: string;
  active?: boolean;
  ordering: 'created_date' | '-created_date';
  offset: number;
  limit: number;
}

/**
 * The card an invoice is charged with (gaps.md §11): the account's newest active card (the last
 * created; the uuid breaks a tie), or null when it has none.
 */
export function chargeableCard<T extends { active: boolean; created_date: Date; uuid: string }>(
  cards: readonly T[],
): T | null {
  let newest: T | null = null;
  for (const card of cards) {
    if (!card.active) continue;
    const later =
      !newest ||
      card.created_date.getTime() > newest.created_date.getTime() ||
      (card.created_date.getTime() === newest.created_date.getTime() && card.uuid > newest.uuid);
    if (later) newest = card;
  }
  return newest;
}

/** The card's expiry month as YYYY-MM (what payment_card.expiry_notice_month records). */
export function expiryMonth(card: { month: number; year: number }): string {
  return `${String(card.year).padStart(4, '0')}-${String(card.month).padStart(2, '0')}`;
}

/**
 * card_expires_this_month at `now` (gaps.md §11: on the first day of the month of expiry, on the
 * organization's clock): `due` at the first instant of the 1st of that month on the organization's
 * wall clock once `now` reached it (a clock moved past it sends it late, dated that instant);
 * `not_yet` before; `passed` for a card registered after that instant (it never had a first day of
 * its expiry month to be told on).
 */
export function expiryNotice(
  card: { month: number; year: number; created_at: Date },
  timeZone: string,
  now: Date,
): { kind: 'due'; at: Date } | { kind: 'not_yet' } | { kind: 'passed' } {
  const at = startOfLocalDay(`${expiryMonth(card)}-01`, timeZone);
  if (card.created_at.getTime() > at.getTime()) return { kind: 'passed' };
  if (now.getTime() < at.getTime()) return { kind: 'not_yet' };
  return { kind: 'due', at };
}
