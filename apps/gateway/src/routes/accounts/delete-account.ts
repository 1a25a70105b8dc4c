import type { ServiceClients } from '../../clients/service-clients.js';

/** Questions to invoicing one delete may ask before the still unconfirmed invoices count as invoices. */
const CONFIRMATION_ROUNDS = 3;

interface Confirmed {
  existing_invoices: string[];
  absent_invoices: string[];
  invoiced_charges: string[];
  uninvoiced_charges: string[];
}

/**
 * DELETE /accounts/{code}/: the accounts service decides. When invoices were announced for the
 * account and their state has not reached accounts yet, it cannot know whether they were
 * committed, so it answers with their uuids; likewise with the charges of its expired
 * subscriptions not yet known to be invoiced. Invoicing says which invoices exist (waiting for any
 * transaction still issuing one) and which charges are invoiced, and the delete is asked again
 * with those answers. The gateway only carries the answers: it holds no rule.
 * docs/architecture.md "Invoices and account deletion".
 */
export async function deleteAccount(clients: Pick<ServiceClients, 'accounts' | 'invoicing'>, code: string) {
  let confirmed: Confirmed = {
    existing_invoices: [],
    absent_invoices: [],
    invoiced_charges: [],
    uninvoiced_charges: [],
  };
  for (let round = 1; ; round += 1) {
    const reply = await clients.accounts.call('deleteAccount', {
      code,
      ...confirmed,
      last_round: round > CONFIRMATION_ROUNDS,
    });
    if (reply.deleted) return;
    const [existing, invoiced] = await Promise.all([
      askedAbout(reply.unconfirmed_invoices, async (uuids) => {
        return (await clients.invoicing.call('confirmInvoices', { uuids })).existing;
      }),
      askedAbout(reply.unconfirmed_charges, async (uuids) => {
        return (await clients.invoicing.call('confirmCharges', { uuids })).invoiced;
      }),
    ]);
    confirmed = {
      existing_invoices: reply.unconfirmed_invoices.filter((uuid) => existing.has(uuid)),
      absent_invoices: reply.unconfirmed_invoices.filter((uuid) => !existing.has(uuid)),
      invoiced_charges: reply.unconfirmed_charges.filter((uuid) => invoiced.has(uuid)),
      uninvoiced_charges: reply.unconfirmed_charges.filter((uuid) => !invoiced.has(uuid)),
    };
  }
}

/** Invoicing's answer about `uuids` as a set (no call when there is nothing to ask). */
async function askedAbout(uuids: string[], ask: (uuids: string[]) => Promise<string[]>): Promise<Set<string>> {
  return new Set(uuids.length === 0 ? [] : await ask(uuids));
}
