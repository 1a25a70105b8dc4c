import type { ServiceClients } from '../../clients/service-clients.js';

/** Questions to invoicing one delete may ask before the still unconfirmed invoices count as invoices. */
const CONFIRMATION_ROUNDS = 3;

/**
 * DELETE /accounts/{code}/: the accounts service decides. When invoices were announced for the
 * account and their state has not reached accounts yet, it cannot know whether they were
 * committed, so it answers with their uuids; invoicing says which exist (waiting for any
 * transaction still issuing one), and the delete is asked again with that answer. The gateway only
 * carries the answer: it holds no rule. docs/architecture.md "Invoices and account deletion".
 */
export async function deleteAccount(clients: Pick<ServiceClients, 'accounts' | 'invoicing'>, code: string) {
  let confirmed: { existing_invoices: string[]; absent_invoices: string[] } = {
    existing_invoices: [],
    absent_invoices: [],
  };
  for (let round = 1; ; round += 1) {
    const reply = await clients.accounts.call('deleteAccount', {
      code,
      ...confirmed,
      last_round: round > CONFIRMATION_ROUNDS,
    });
    if (reply.deleted) return;
    const asked = reply.unconfirmed_invoices;
    const { existing } = await clients.invoicing.call('confirmInvoices', { uuids: asked });
    const exists = new Set(existing);
    confirmed = {
      existing_invoices: asked.filter((uuid) => exists.has(uuid)),
      absent_invoices: asked.filter((uuid) => !exists.has(uuid)),
    };
  }
}
