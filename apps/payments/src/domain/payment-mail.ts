import { formatNumber, type NumberLanguage } from '@billing/mail';
import { type CurrencyCode, formatAmount, money } from '@billing/money';
import { localDate } from './amounts.js';
import type { AccountRecipient } from './directory.js';

/**
 * The e-mails payments sends to an account's recipients (gaps.md §11 "Recipients get e-mails by
 * their flags"): a payment confirmation to those with receive_payment_confirmation; card
 * notifications (a charge declined, the card expiring this month) to those with
 * receive_payment_card_notifications. What each says is fixed when it is written.
 */
export type PaymentMailFacts =
  | {
      kind: 'payment_confirmation';
      invoice_number: string;
      amount: string;
      currency: string;
      brand: string;
      last4: string;
      /** ISO instant of the charge. */
      paid_at: string;
    }
  | {
      kind: 'payment_declined';
      invoice_number: string;
      amount: string;
      currency: string;
      brand: string;
      last4: string;
      attempted_at: string;
      /** When the next attempt of the dunning schedule falls due; null: no more attempts. */
      next_attempt_at: string | null;
    }
  | { kind: 'card_expires_this_month'; brand: string; last4: string; month: number; year: number };

export type PaymentMailKind = PaymentMailFacts['kind'];

/** The recipients a mail of `kind` goes to, by their flags. */
export function mailRecipients(kind: PaymentMailKind, recipients: readonly AccountRecipient[]): AccountRecipient[] {
  return recipients.filter((recipient) =>
    kind === 'payment_confirmation' ? recipient.receivePaymentConfirmation : recipient.receivePaymentCardNotifications,
  );
}

type MailLanguage = NumberLanguage;

/** The account's language read as its ISO 639-1 base (da, da-DK → da); English without a table. */
export function mailLanguage(code: string): MailLanguage {
  const base = code.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return base === 'da' ? 'da' : 'en';
}

const TEXTS = {
  en: {
    confirmationSubject: 'Payment received for invoice {number}',
    confirmationBody:
      'Hello,\n\nWe have received your payment of {amount} {currency} for invoice {number}, charged to your {brand} card ending in {last4} on {date}.\n\nThank you.\n{organization}\n',
    declinedSubject: 'Payment for invoice {number} was declined',
    declinedBody:
      'Hello,\n\nYour {brand} card ending in {last4} was declined when we charged {amount} {currency} for invoice {number} on {date}.\n{next}\n\n{organization}\n',
    declinedRetry: 'We will try again on {retryDate}.',
    declinedFinal: 'We will not try again: please add another card or pay the invoice another way.',
    expiresSubject: 'Your card ending in {last4} expires this month',
    expiresBody:
      'Hello,\n\nYour {brand} card ending in {last4}, which pays the invoices of {organization}, expires at the end of this month ({expiry}). Please add a new card before then, so that your payments go on.\n\n{organization}\n',
  },
  da: {
    confirmationSubject: 'Betaling modtaget for faktura {number}',
    confirmationBody:
      'Hej,\n\nVi har modtaget din betaling på {amount} {currency} for faktura {number}, trukket på dit {brand}-kort, der slutter på {last4}, den {date}.\n\nTak.\n{organization}\n',
    declinedSubject: 'Betalingen for faktura {number} blev afvist',
    declinedBody:
      'Hej,\n\nDit {brand}-kort, der slutter på {last4}, blev afvist, da vi trak {amount} {currency} for faktura {number} den {date}.\n{next}\n\n{organization}\n',
    declinedRetry: 'Vi prøver igen den {retryDate}.',
    declinedFinal: 'Vi prøver ikke igen: tilføj venligst et andet kort, eller betal fakturaen på anden vis.',
    expiresSubject: 'Dit kort, der slutter på {last4}, udløber denne måned',
    expiresBody:
      'Hej,\n\nDit {brand}-kort, der slutter på {last4}, som betaler fakturaerne fra {organization}, udløber ved udgangen af denne måned ({expiry}). Tilføj venligst et nyt kort inden da, så dine betalinger fortsætter.\n\n{organization}\n',
  },
} as const satisfies Record<MailLanguage, Record<string, string>>;

function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for {${name}}`);
    return value;
  });
}

/** The amount with the currency's decimals, written the language's way (da 1.234,50). */
function amountText(amount: string, currency: string, language: MailLanguage): string {
  return formatNumber(formatAmount(money(amount), currency as CurrencyCode), language);
}

/**
 * Subject and text of a payment mail in the account's language. Dates are the organization's
 * local days (YYYY-MM-DD, as on invoices), amounts exact with the currency's decimals.
 */
export function paymentMailText(
  facts: PaymentMailFacts,
  languageCode: string,
  organization: { name: string; timeZone: string },
): { subject: string; text: string } {
  const language = mailLanguage(languageCode);
  const texts = TEXTS[language];
  const day = (iso: string) => localDate(new Date(iso), organization.timeZone);
  switch (facts.kind) {
    case 'payment_confirmation': {
      const values = {
        number: facts.invoice_number,
        amount: amountText(facts.amount, facts.currency, language),
        currency: facts.currency,
        brand: facts.brand,
        last4: facts.last4,
        date: day(facts.paid_at),
        organization: organization.name,
      };
      return { subject: fill(texts.confirmationSubject, values), text: fill(texts.confirmationBody, values) };
    }
    case 'payment_declined': {
      const next =
        facts.next_attempt_at === null
          ? texts.declinedFinal
          : fill(texts.declinedRetry, { retryDate: day(facts.next_attempt_at) });
      const values = {
        number: facts.invoice_number,
        amount: amountText(facts.amount, facts.currency, language),
        currency: facts.currency,
        brand: facts.brand,
        last4: facts.last4,
        date: day(facts.attempted_at),
        next,
        organization: organization.name,
      };
      return { subject: fill(texts.declinedSubject, values), text: fill(texts.declinedBody, values) };
    }
    case 'card_expires_this_month': {
      const values = {
        brand: facts.brand,
        last4: facts.last4,
        expiry: `${String(facts.month).padStart(2, '0')}/${facts.year}`,
        organization: organization.name,
      };
      return { subject: fill(texts.expiresSubject, values), text: fill(texts.expiresBody, values) };
    }
  }
}
