import type { EntityManager } from '@mikro-orm/postgresql';
import { type AccountFields, displayName, euVatStatus } from '../domain/account.js';
import {
  type AccountReadModelSnapshots,
  type AccountView,
  EMPTY_READ_MODEL,
  type PaymentGatewayAccountView,
  type RecipientView,
} from '../domain/account-view.js';
import { recipientsHaveSelfService } from '../domain/organization.js';
import { findReadModelSnapshots } from './account-read-model-query.js';
import { findAccountsByIds } from './accounts-by-id.js';
import type { AccountRow } from './entities/account.entity.js';
import { OrganizationEntity } from './entities/organization.entity.js';
import {
  PaymentGatewayAccountEntity,
  type PaymentGatewayAccountRow,
} from './entities/payment-gateway-account.entity.js';
import { RecipientEntity, type RecipientRow } from './entities/recipient.entity.js';

/** `selfService`: the organization's self_service feature is on (recipientsHaveSelfService). */
export function toRecipientView(row: RecipientRow, accountCode: string, selfService: boolean): RecipientView {
  return {
    uuid: row.id,
    account: row.account_id,
    account_code: accountCode,
    name: row.name,
    email: row.email,
    receive_invoice: row.receive_invoice,
    receive_payment_confirmation: row.receive_payment_confirmation,
    receive_payment_card_notifications: row.receive_payment_card_notifications,
    receive_subscription_notifications: row.receive_subscription_notifications,
    has_access_to_self_service: selfService,
  };
}

export function toPaymentGatewayAccountView(row: PaymentGatewayAccountRow): PaymentGatewayAccountView {
  return {
    uuid: row.id,
    payment_gateway: row.payment_gateway,
    payment_gateway_account_id: row.payment_gateway_account_id,
  };
}

/**
 * Turns account rows into full views, loading their sets, reseller codes, read model snapshots and
 * the organization's self_service flag in six queries whatever the number of accounts.
 * `options.readModel: false`: without the read model's sets (empty), for a reader that needs the
 * account's own fields and recipients only (invoicing's buyers).
 */
export async function loadAccountViews(
  em: EntityManager,
  organizationId: string,
  rows: AccountRow[],
  options: { readModel?: boolean } = {},
): Promise<AccountView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const resellerIds = [...new Set(rows.map((row) => row.reseller).filter((id): id is string => id !== null))];
  const [recipients, gatewayAccounts, resellers, readModel, selfService] = await Promise.all([
    em.find(
      RecipientEntity,
      { organization_id: organizationId, account_id: { $in: ids } },
      { orderBy: { created_at: 'asc', id: 'asc' } },
    ),
    em.find(
      PaymentGatewayAccountEntity,
      { organization_id: organizationId, account_id: { $in: ids } },
      { orderBy: { position: 'asc' } },
    ),
    findAccountsByIds(em, organizationId, resellerIds),
    options.readModel === false
      ? Promise.resolve(new Map<string, AccountReadModelSnapshots>())
      : findReadModelSnapshots(em, organizationId, ids),
    selfServiceIsOn(em, organizationId),
  ]);
  const resellerCodes = new Map(resellers.map((reseller) => [reseller.id, reseller.code]));
  return rows.map((row) =>
    toAccountView(
      row,
      recipients.filter((r) => r.account_id === row.id),
      gatewayAccounts.filter((g) => g.account_id === row.id),
      row.reseller ? (resellerCodes.get(row.reseller) ?? '') : '',
      readModel.get(row.id) ?? EMPTY_READ_MODEL,
      selfService,
    ),
  );
}

/** Whether the organization's recipients have self-service access (its self_service feature). */
export async function selfServiceIsOn(em: EntityManager, organizationId: string): Promise<boolean> {
  const organization = await em.findOne(OrganizationEntity, { id: organizationId }, { fields: ['features'] });
  return recipientsHaveSelfService(organization?.features ?? []);
}

/**
 * An account row with its recipients, gateway accounts (both in order), reseller's code and its
 * subscriptions and draft lines from the read model.
 */
export function toAccountView(
  row: AccountRow,
  recipients: RecipientRow[],
  gatewayAccounts: PaymentGatewayAccountRow[],
  resellerCode: string,
  readModel: AccountReadModelSnapshots,
  selfService: boolean,
): AccountView {
  const fields = accountFields(row);
  return {
    ...fields,
    uuid: row.id,
    reseller_code: resellerCode,
    display_name: displayName(fields),
    created_date: row.created_at,
    last_modified_date: row.updated_at,
    eu_vat_status: euVatStatus(fields),
    register_status: row.register_status ?? null,
    industry: row.industry,
    is_archived: row.is_archived,
    recipients: recipients.map((recipient) => toRecipientView(recipient, row.code, selfService)),
    payment_gateway_accounts: gatewayAccounts.map(toPaymentGatewayAccountView),
    read_model: readModel,
  };
}

function accountFields(row: AccountRow): AccountFields {
  return {
    code: row.code,
    company_name: row.company_name ?? null,
    first_name: row.first_name ?? null,
    middle_name: row.middle_name ?? null,
    last_name: row.last_name ?? null,
    title: row.title ?? null,
    gender: row.gender ?? null,
    erp_id: row.erp_id ?? null,
    partner: row.partner ?? null,
    ean_invoicing: row.ean_invoicing,
    einvoicing_identifier_schema: row.einvoicing_identifier_schema,
    ean_number: row.ean_number ?? null,
    einvoicing_intermediator: row.einvoicing_intermediator ?? null,
    invoice_note: row.invoice_note ?? null,
    language: row.language,
    legal_address: row.legal_address,
    legal_zipcode: row.legal_zipcode,
    legal_city: row.legal_city,
    legal_country: row.legal_country,
    legal_vat_number: row.legal_vat_number,
    billing_same_as_legal: row.billing_same_as_legal,
    billing_address: row.billing_address,
    billing_zipcode: row.billing_zipcode,
    billing_city: row.billing_city,
    billing_country: row.billing_country,
    update_from_registers: row.update_from_registers,
    default_payment_terms: row.default_payment_terms ?? null,
    default_collection_method: row.default_collection_method ?? null,
    is_getting_reminders: row.is_getting_reminders,
    reseller: row.reseller ?? null,
    reseller_billing_frequency: row.reseller_billing_frequency ?? null,
    reseller_billing_grouping: row.reseller_billing_grouping ?? null,
    type: row.type ?? null,
    custom_fields: row.custom_fields,
    override_business_entity: row.override_business_entity ?? null,
  };
}
