import type { Buyer, Directory, Seller } from '@billing/invoicing';

/**
 * The invoice bench's Directory: fixed facts in memory instead of gRPC calls to the accounts
 * service, so the measured path is the invoicing service's own work (the two lookups per charge
 * cost a promise each here). Every organization is a Danish seller (Europe/Copenhagen, DKK, 14 days'
 * payment terms, no test clock); every account a Danish buyer without a VAT number (domestic 25 %
 * VAT), language da, no invoice note or own payment terms, and one recipient with
 * receive_invoice, so every issued invoice also writes its mail job (sending it is another
 * worker's work and is not measured).
 */
export const SELLER: Seller = {
  party: {
    name: 'Benchmark ApS',
    address: 'Vesterbrogade 1',
    zipcode: '1620',
    city: 'København V',
    country: 'DK',
    vat_number: '',
    email: '',
  },
  time_zone: 'Europe/Copenhagen',
  default_payment_terms: 14,
  default_collection_method: 'invoice',
  bank_accounts: [],
  base_currency: 'DKK',
  exchange_rates: [],
  test_clock_time: null,
  features: [],
  reminder_schedule_days: [3, 10, 20],
  reminder_fee: '',
};

/** The buyer of `accountId`: derived from the id alone, the same for both sides of the bench. */
export function benchBuyer(accountId: string): Buyer {
  const code = `acct-${accountId.slice(0, 8)}`;
  const email = `${code}@example.com`;
  return {
    account_id: accountId,
    code,
    party: {
      name: `Customer ${code}`,
      address: 'Nørregade 10',
      zipcode: '1165',
      city: 'København K',
      country: 'DK',
      vat_number: '',
      email,
    },
    language: 'da',
    invoice_note: null,
    payment_terms: null,
    collection_method: null,
    is_getting_reminders: true,
    recipients: [{ email, name: `Customer ${code}` }],
    einvoicing: {
      ean_invoicing: false,
      einvoicing_identifier_schema: '',
      ean_number: null,
      einvoicing_intermediator: null,
      legal_country: 'DK',
    },
    einvoice_field_mappings: [],
    reseller: null,
    reseller_billing_frequency: null,
    reseller_billing_grouping: null,
  };
}

export const benchDirectory: Directory = {
  buyer: async (_context, accountId) => benchBuyer(accountId),
  buyers: async (_context, accountIds) => new Map(accountIds.map((id) => [id, benchBuyer(id)])),
  seller: async () => SELLER,
  accountSummaries: async (_context, accountIds) =>
    accountIds.map((accountId) => {
      const buyer = benchBuyer(accountId);
      return { uuid: accountId, code: buyer.code, display_name: buyer.party.name, company_name: null, type: 'company' };
    }),
  // In memory like the buyer: the bench measures invoicing's own work (the lock is still taken).
  announceInvoices: async () => {},
  announceAccountsInvoices: async () => {},
  close: () => {},
};
