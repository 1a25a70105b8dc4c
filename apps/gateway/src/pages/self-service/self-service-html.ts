import type { invoicingV1, paymentsV1, selfServiceV1, subscriptionsV1 } from '@billing/proto';
import { escapeHtml } from '../../http/browsable/html.js';
import {
  SELF_SERVICE_SIGN_OUT,
  selfServiceAccountPath,
  selfServiceAddCardPath,
  selfServiceCardDisablePath,
  selfServiceInvoicePdfPath,
} from './self-service-paths.js';
import type { SelfServiceTexts } from './self-service-texts.js';

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header { display: flex; gap: 1rem; align-items: center; justify-content: space-between; padding: .6rem 1.5rem;
  background: #24292f; color: #fff; }
header form { margin: 0; }
main { padding: 1rem 1.5rem; max-width: 60rem; }
h1 { font-size: 1.4rem; margin: .3rem 0 .8rem; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
table { border-collapse: collapse; background: #fff; width: 100%; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #d0d7de; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
td form { margin: 0; }
.notice { background: #dafbe1; border: 1px solid #4ac26b; border-radius: 6px; padding: .5rem 1rem; }
button { padding: .3rem .8rem; }
table + form, table + p { margin-top: .8rem; }
`;

/** What a page is made of: its words, title and body, and the signed-in organization if any. */
export interface PageParts {
  texts: SelfServiceTexts;
  title: string;
  body: string;
  /** Set when signed in: the header names the organization and offers to sign out. */
  organizationName?: string;
}

export function renderPage({ texts, title, body, organizationName }: PageParts): string {
  const header =
    organizationName === undefined
      ? ''
      : `<header><span>${escapeHtml(organizationName)}</span><form method="post" action="${SELF_SERVICE_SIGN_OUT}"><button type="submit">${escapeHtml(texts.signOut)}</button></form></header>`;
  return [
    '<!doctype html>',
    `<html lang="${texts.lang}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>`,
    `<body>${header}<main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
  ].join('\n');
}

/** A page that only says something (an expired link, a refusal), with an optional second line. */
export function messagePage(texts: SelfServiceTexts, title: string, message: string, hint?: string): string {
  const second = hint ? `<p>${escapeHtml(hint)}</p>` : '';
  return renderPage({ texts, title, body: `<p class="message">${escapeHtml(message)}</p>${second}` });
}

/** The link's page: using it needs a click, so a mail scanner's GET does not use the link up. */
export function signInPage(texts: SelfServiceTexts): string {
  return renderPage({
    texts,
    title: texts.signInTitle,
    body: `<p>${escapeHtml(texts.signInIntro)}</p><form method="post"><button type="submit">${escapeHtml(texts.signInButton)}</button></form>`,
  });
}

export function accountChooserPage(
  texts: SelfServiceTexts,
  session: selfServiceV1.GetSelfServiceSessionResponse,
): string {
  const items = session.accounts
    .map(
      (account) =>
        `<li><a href="${selfServiceAccountPath(account.uuid)}">${escapeHtml(account.display_name)}</a> (${escapeHtml(account.code)})</li>`,
    )
    .join('');
  return renderPage({
    texts,
    title: texts.chooseAccount,
    body: `<ul class="accounts">${items}</ul>`,
    organizationName: session.organization_name,
  });
}

/** What the account page shows. */
export interface AccountPageData {
  session: selfServiceV1.GetSelfServiceSessionResponse;
  account: selfServiceV1.SelfServiceAccount;
  invoices: invoicingV1.Invoice[];
  subscriptions: subscriptionsV1.Subscription[];
  cards: paymentsV1.PaymentCard[];
  notice?: string | undefined;
}

/** A day as YYYY-MM-DD in the organization's time zone. */
function dayIn(timeZone: string, moment: Date | undefined): string {
  if (!moment) return '';
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    moment,
  );
}

function table(headings: string[], rows: string[], empty: string, id: string): string {
  if (rows.length === 0) return `<p id="${id}">${escapeHtml(empty)}</p>`;
  const head = headings.map((heading) => `<th>${escapeHtml(heading)}</th>`).join('');
  return `<table id="${id}"><thead><tr>${head}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function invoiceRows(texts: SelfServiceTexts, data: AccountPageData): string[] {
  return data.invoices.map((invoice) => {
    const status = texts.invoiceStatus[invoice.status] ?? invoice.status;
    const kind = invoice.is_credit_note ? ` (${texts.creditNote})` : '';
    const pdf = `<a href="${selfServiceInvoicePdfPath(data.account.uuid, invoice.uuid)}">${escapeHtml(texts.downloadPdf)}</a>`;
    return `<tr data-invoice="${escapeHtml(invoice.invoice_number ?? '')}"><td>${escapeHtml(invoice.invoice_number ?? '')}${escapeHtml(kind)}</td><td>${escapeHtml(invoice.date)}</td><td>${escapeHtml(invoice.due_date)}</td><td class="number">${escapeHtml(`${invoice.total} ${invoice.currency}`)}</td><td>${escapeHtml(status)}</td><td>${pdf}</td></tr>`;
  });
}

function subscriptionRows(texts: SelfServiceTexts, data: AccountPageData): string[] {
  const timeZone = data.session.organization_time_zone;
  return data.subscriptions.map((subscription) => {
    const status = texts.subscriptionStatus[subscription.status] ?? subscription.status;
    const price = `${subscription.final_price} ${subscription.terms?.currency ?? ''}`.trim();
    return `<tr><td>${escapeHtml(subscription.plan?.name ?? '')}</td><td class="number">${subscription.quantity}</td><td class="number">${escapeHtml(price)}</td><td>${escapeHtml(status)}</td><td>${escapeHtml(dayIn(timeZone, subscription.next_renewal_date))}</td></tr>`;
  });
}

function cardRows(texts: SelfServiceTexts, data: AccountPageData): string[] {
  return data.cards.map((card) => {
    const expiry = `${String(card.month).padStart(2, '0')}/${card.year}`;
    const action = card.active
      ? `<form method="post" action="${selfServiceCardDisablePath(data.account.uuid, card.uuid)}"><button type="submit">${escapeHtml(texts.disable)}</button></form>`
      : '';
    return `<tr data-card="${escapeHtml(card.uuid)}"><td>${escapeHtml(`${card.brand} ${card.card_number}`)}</td><td>${escapeHtml(expiry)}</td><td>${escapeHtml(card.active ? texts.active : texts.disabled)}</td><td>${action}</td></tr>`;
  });
}

/** The account's page: its invoices (with their PDFs), subscriptions and payment cards. */
export function accountPage(texts: SelfServiceTexts, data: AccountPageData): string {
  const notice = data.notice ? `<p class="notice">${escapeHtml(data.notice)}</p>` : '';
  const addCard = data.account.card_gateway
    ? `<form method="post" action="${selfServiceAddCardPath(data.account.uuid)}"><button type="submit">${escapeHtml(texts.addCard)}</button></form>`
    : `<p>${escapeHtml(texts.cannotAddCard)}</p>`;
  const body = [
    notice,
    `<h2>${escapeHtml(texts.invoices)}</h2>`,
    table(
      [texts.invoiceNumber, texts.date, texts.dueDate, texts.total, texts.status, ''],
      invoiceRows(texts, data),
      texts.noInvoices,
      'invoices',
    ),
    `<h2>${escapeHtml(texts.subscriptions)}</h2>`,
    table(
      [texts.plan, texts.quantity, texts.price, texts.status, texts.nextRenewal],
      subscriptionRows(texts, data),
      texts.noSubscriptions,
      'subscriptions',
    ),
    `<h2>${escapeHtml(texts.cards)}</h2>`,
    table([texts.card, texts.expires, texts.status, ''], cardRows(texts, data), texts.noCards, 'cards'),
    addCard,
  ].join('\n');
  return renderPage({
    texts,
    title: data.account.display_name,
    body,
    organizationName: data.session.organization_name,
  });
}
