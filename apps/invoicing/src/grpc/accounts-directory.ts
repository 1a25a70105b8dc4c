import { AppError } from '@billing/errors';
import { createGrpcClient } from '@billing/grpc';
import type { RequestContext } from '@billing/observability';
import { accountsV1 } from '@billing/proto';
import type { AccountSummary, Buyer, Directory } from '../domain/directory.js';
import type { FieldMapping } from '../domain/einvoice/einvoice-snapshot.js';

/** Accounts asked for in one GetAccountSummaries call. */
const SUMMARY_BATCH = 2000;

const text = (value: string | null | undefined): string => value ?? '';

/** The buyer facts of an account as the accounts service sends it, with the peppol_bis mappings it needs. */
function buyerOf(account: accountsV1.Account, mappings: FieldMapping[]): Buyer {
  const billing = account.billing_same_as_legal
    ? { address: account.legal_address, zipcode: account.legal_zipcode, city: account.legal_city }
    : { address: account.billing_address, zipcode: account.billing_zipcode, city: account.billing_city };
  const recipients = account.recipients.filter((recipient) => recipient.receive_invoice && recipient.email);
  return {
    account_id: account.uuid,
    code: account.code,
    party: {
      name: account.display_name,
      ...billing,
      // VAT is decided by where the buyer is established (composeInvoice reads this country).
      country: account.legal_country,
      vat_number: text(account.legal_vat_number),
      email: recipients[0]?.email ?? '',
    },
    language: account.language || 'en',
    invoice_note: account.invoice_note ?? null,
    payment_terms: account.default_payment_terms ?? null,
    collection_method: account.default_collection_method || null,
    recipients: recipients.map((recipient) => ({ email: recipient.email, name: recipient.name })),
    einvoicing: {
      ean_invoicing: account.ean_invoicing,
      einvoicing_identifier_schema: account.einvoicing_identifier_schema,
      ean_number: account.ean_number ?? null,
      einvoicing_intermediator: account.einvoicing_intermediator ?? null,
      legal_country: account.legal_country,
    },
    einvoice_field_mappings: mappings,
    is_getting_reminders: account.is_getting_reminders,
    reseller: account.reseller || null,
    reseller_billing_frequency: account.reseller_billing_frequency || null,
    reseller_billing_grouping: account.reseller_billing_grouping || null,
  };
}

/** A Directory over gRPC to the accounts service. */
export function accountsDirectory(address: string): Directory {
  const accounts = createGrpcClient(accountsV1.AccountsServiceClient, address);
  const identity = createGrpcClient(accountsV1.IdentityServiceClient, address);
  const readModel = createGrpcClient(accountsV1.ReadModelServiceClient, address);
  const organizationData = createGrpcClient(accountsV1.OrganizationDataServiceClient, address);
  /** The organization's peppol_bis field mappings (one per format and target field: a page of 100 holds them all). */
  const peppolMappings = async (context: RequestContext): Promise<FieldMapping[]> =>
    (
      await organizationData.call(
        'listEinvoiceFieldMappings',
        { page: { page: 1, page_size: 100, ordering: '' } },
        { context },
      )
    ).einvoice_field_mappings
      .filter((mapping) => mapping.format === 'peppol_bis')
      .map((mapping) => ({
        target_field: mapping.target_field,
        source_type: mapping.source_type,
        source_builtin_field: mapping.source_builtin_field,
        source_custom_field: mapping.source_custom_field ?? null,
      }));
  return {
    async buyer(context, accountId) {
      const { accounts: summaries } = await accounts.call(
        'getAccountSummaries',
        { uuids: [accountId], codes: [] },
        { context },
      );
      const summary = summaries[0];
      if (!summary) throw AppError.notFound(`Account ${accountId} does not exist.`);
      const { account } = await accounts.call('getAccount', { code: summary.code }, { context });
      if (!account) throw AppError.notFound(`Account ${accountId} does not exist.`);
      const mappings = account.ean_invoicing ? await peppolMappings(context) : [];
      return buyerOf(account, mappings);
    },
    async buyers(context, accountIds) {
      const found = new Map<string, Buyer>();
      // In slices, as accountSummaries: one answer for very many accounts would pass gRPC's message limit.
      const unique = [...new Set(accountIds)];
      const read: accountsV1.Account[] = [];
      for (let start = 0; start < unique.length; start += SUMMARY_BATCH) {
        const uuids = unique.slice(start, start + SUMMARY_BATCH);
        read.push(...(await accounts.call('getAccountsByUuid', { uuids }, { context })).accounts);
      }
      // The organization's mappings once for every account with ean_invoicing.
      const mappings = read.some((account) => account.ean_invoicing) ? await peppolMappings(context) : [];
      for (const account of read) found.set(account.uuid, buyerOf(account, account.ean_invoicing ? mappings : []));
      return found;
    },
    async seller(context) {
      const { organization } = await identity.call('getOrganization', {}, { context });
      if (!organization) throw AppError.internal('The organization is missing.');
      return {
        party: {
          name: organization.name,
          address: organization.address,
          zipcode: organization.zipcode,
          city: organization.city,
          country: organization.country,
          vat_number: organization.vat_number,
          email: organization.email,
        },
        time_zone: organization.time_zone,
        default_payment_terms: organization.default_payment_terms,
        default_collection_method: organization.default_collection_method,
        bank_accounts: organization.bank_accounts.map((account) => ({
          id: account.id,
          currency: account.currency ?? null,
          iban: account.iban,
          bic: account.bic,
          reg_number: account.reg_number,
          account_number: account.account_number,
        })),
        base_currency: organization.base_currency,
        exchange_rates: organization.exchange_rates.map(({ currency, rate, valid_from }) => ({
          currency,
          rate,
          valid_from,
        })),
        test_clock_time: organization.test_clock_time ?? null,
        features: organization.features,
        reminder_schedule_days: organization.reminder_schedule_days,
        reminder_fee: organization.reminder_fee,
      };
    },
    async accountSummaries(context, accountIds) {
      const found: AccountSummary[] = [];
      // In slices: one answer for every account of a large export would pass gRPC's message limit.
      for (let start = 0; start < accountIds.length; start += SUMMARY_BATCH) {
        const uuids = accountIds.slice(start, start + SUMMARY_BATCH);
        const reply = await accounts.call('getAccountSummaries', { uuids, codes: [] }, { context });
        for (const summary of reply.accounts) {
          found.push({
            uuid: summary.uuid,
            code: summary.code,
            display_name: summary.display_name,
            company_name: summary.company_name ?? null,
            type: summary.type,
          });
        }
      }
      return found;
    },
    async announceInvoices(context, accountId, invoiceIds) {
      await readModel.call('announceInvoices', { account: accountId, invoices: [...invoiceIds] }, { context });
    },
    async announceAccountsInvoices(context, announcements) {
      if (announcements.length === 0) return;
      await readModel.call(
        'announceAccountsInvoices',
        {
          announcements: announcements.map(({ accountId, invoiceIds }) => ({
            account: accountId,
            invoices: [...invoiceIds],
          })),
        },
        { context },
      );
    },
    close() {
      accounts.close();
      identity.close();
      readModel.close();
      organizationData.close();
    },
  };
}
