/**
 * The e-mails recipients with receive_subscription_notifications get about a subscription (docs/api.md
 * "Subscription notifications"): which changes of subscription.changed become one, and what each
 * says, in the account's language (en, da; English otherwise). Pure: no I/O.
 */

export type NoticeKind = 'started' | 'renews_soon' | 'changed' | 'cancelled' | 'reactivated';

/**
 * The notice a subscription.changed `change` gives, if any. A subscription starts when it is
 * activated: every new subscription is (`created` is followed by `activated` at its start, in the
 * same change when it starts at once), so one created to start later is announced when it starts. A change is announced once, when it is decided: `change_scheduled` for one
 * taking effect at the renewal or a set time, `changed` only for an immediate one (the scheduled
 * change taking effect later says nothing new). A cancellation likewise: `cancelled` (now) or
 * `cancellation_scheduled`, not the expiry that follows. Renewals, expiries and edits of other
 * fields (`updated`) give none; renews_soon comes from the renewal notice, 7 days ahead.
 */
export function noticeKindOf(change: string, changeType: string): NoticeKind | null {
  switch (change) {
    case 'activated':
      return 'started';
    case 'change_scheduled':
      return 'changed';
    case 'changed':
      return changeType === 'immediate' ? 'changed' : null;
    case 'cancelled':
    case 'cancellation_scheduled':
      return 'cancelled';
    case 'reactivated':
      return 'reactivated';
    default:
      return null;
  }
}

export type NoticeLanguage = 'en' | 'da';

/** en, da; every other language (or none) is written in English. */
export function noticeLanguage(code: string): NoticeLanguage {
  return code.trim().toLowerCase().split(/[-_]/)[0] === 'da' ? 'da' : 'en';
}

/** A subscription's price for one period, as a notice shows it. */
export interface PeriodPrice {
  /** Decimal text, e.g. "200.00". */
  amount: string;
  currency: string;
  /** day, week, month, year */
  interval_type: string;
  interval_count: number;
}

/** What a notice says. Days are the organization's local days (YYYY-MM-DD). */
export interface NoticeFacts {
  kind: NoticeKind;
  language: NoticeLanguage;
  organization: string;
  plan: string;
  /** The day it takes effect: the start, the renewal, the change, the end, the reactivation. */
  date: string;
  quantity: number;
  price: PeriodPrice;
  /** The next renewal (started, reactivated); null when none. */
  next_renewal: string | null;
  /** changed: the quantity and price before (after: `quantity`, `price`). */
  before?: { quantity: number; price: PeriodPrice };
}

const TEXTS = {
  en: {
    greeting: 'Hello,',
    closing: 'Kind regards,',
    startedSubject: 'Your subscription to {plan} has started',
    startedBody: 'Your subscription to {plan} started on {date}.',
    renewsSubject: 'Your subscription to {plan} renews on {date}',
    renewsBody: 'Your subscription to {plan} renews on {date}.',
    changedSubject: 'Your subscription to {plan} changes on {date}',
    changedBody: 'Your subscription to {plan} changes from {date}:',
    cancelledSubject: 'Your subscription to {plan} has been cancelled',
    cancelledBody: 'Your subscription to {plan} has been cancelled. It ends on {date}.',
    reactivatedSubject: 'Your subscription to {plan} has been reactivated',
    reactivatedBody: 'Your subscription to {plan} continues from {date}.',
    quantity: 'Quantity: {value}',
    price: 'Price: {value} per {interval}',
    nextRenewal: 'Next renewal: {value}',
    day: ['day', 'days'],
    week: ['week', 'weeks'],
    month: ['month', 'months'],
    year: ['year', 'years'],
  },
  da: {
    greeting: 'Hej,',
    closing: 'Venlig hilsen',
    startedSubject: 'Dit abonnement på {plan} er startet',
    startedBody: 'Dit abonnement på {plan} startede den {date}.',
    renewsSubject: 'Dit abonnement på {plan} fornyes den {date}',
    renewsBody: 'Dit abonnement på {plan} fornyes den {date}.',
    changedSubject: 'Dit abonnement på {plan} ændres den {date}',
    changedBody: 'Dit abonnement på {plan} ændres fra den {date}:',
    cancelledSubject: 'Dit abonnement på {plan} er opsagt',
    cancelledBody: 'Dit abonnement på {plan} er opsagt. Det ophører den {date}.',
    reactivatedSubject: 'Dit abonnement på {plan} er genoptaget',
    reactivatedBody: 'Dit abonnement på {plan} fortsætter fra den {date}.',
    quantity: 'Antal: {value}',
    price: 'Pris: {value} pr. {interval}',
    nextRenewal: 'Næste fornyelse: {value}',
    day: ['dag', 'dage'],
    week: ['uge', 'uger'],
    month: ['måned', 'måneder'],
    year: ['år', 'år'],
  },
} as const;

type Table = (typeof TEXTS)[NoticeLanguage];

const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));

/** "1,250.00" (en) or "1.250,00" (da) from decimal text. */
export function formatAmount(amount: string, language: NoticeLanguage): string {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction] = (negative ? amount.slice(1) : amount).split('.');
  const [group, point] = language === 'da' ? ['.', ','] : [',', '.'];
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, group);
  return `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `${point}${fraction}`}`;
}

/** "month", "3 months", "måned", "3 måneder". */
function intervalText(table: Table, price: PeriodPrice): string {
  const names = table[price.interval_type as 'day' | 'week' | 'month' | 'year'] ?? [
    price.interval_type,
    price.interval_type,
  ];
  return price.interval_count === 1 ? names[0] : `${price.interval_count} ${names[1]}`;
}

function priceText(price: PeriodPrice, language: NoticeLanguage): string {
  return `${formatAmount(price.amount, language)} ${price.currency}`;
}

/** The subject and text of a notice. */
export function subscriptionNotice(facts: NoticeFacts): { subject: string; text: string } {
  const table = TEXTS[facts.language];
  const values = { plan: facts.plan, date: facts.date };
  const price = (value: string) => fill(table.price, { value, interval: intervalText(table, facts.price) });
  const quantity = (value: string | number) => fill(table.quantity, { value });
  const renewal = facts.next_renewal === null ? [] : [fill(table.nextRenewal, { value: facts.next_renewal })];
  let subject: string;
  let lead: string;
  let details: string[];
  switch (facts.kind) {
    case 'started':
      subject = fill(table.startedSubject, values);
      lead = fill(table.startedBody, values);
      details = [quantity(facts.quantity), price(priceText(facts.price, facts.language)), ...renewal];
      break;
    case 'renews_soon':
      subject = fill(table.renewsSubject, values);
      lead = fill(table.renewsBody, values);
      details = [quantity(facts.quantity), price(priceText(facts.price, facts.language))];
      break;
    case 'changed': {
      subject = fill(table.changedSubject, values);
      lead = fill(table.changedBody, values);
      const before = facts.before ?? { quantity: facts.quantity, price: facts.price };
      const oldPrice = priceText(before.price, facts.language);
      const newPrice = priceText(facts.price, facts.language);
      details = [
        before.quantity === facts.quantity
          ? quantity(facts.quantity)
          : quantity(`${before.quantity} → ${facts.quantity}`),
        price(oldPrice === newPrice ? newPrice : `${oldPrice} → ${newPrice}`),
      ];
      break;
    }
    case 'cancelled':
      subject = fill(table.cancelledSubject, values);
      lead = fill(table.cancelledBody, values);
      details = [];
      break;
    case 'reactivated':
      subject = fill(table.reactivatedSubject, values);
      lead = fill(table.reactivatedBody, values);
      details = renewal;
      break;
  }
  const blocks = [table.greeting, lead, ...(details.length > 0 ? [details.join('\n')] : [])];
  return { subject, text: `${blocks.join('\n\n')}\n\n${table.closing}\n${facts.organization}\n` };
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** The local calendar day (YYYY-MM-DD) of an instant in an IANA time zone. */
export function localDay(instant: Date, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format.format(instant);
}
