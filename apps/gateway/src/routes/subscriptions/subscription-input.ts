import type { accountsV1, subscriptionsV1 } from '@billing/proto';
import type { ServiceClients } from '../../clients/service-clients.js';
import { validationFailed } from '../../http/index.js';
import { catalogInput } from '../catalog/catalog-representation.js';
import { accountDoesNotExist, findAccountByCode } from '../shared/account-lookup.js';
import { CHANGE_OPTION_FIELDS } from './subscription-schemas.js';

type ReferenceClients = Pick<ServiceClients, 'accounts' | 'churnReasons'>;

/** What a write body names in the accounts service, checked before the subscriptions service is called. */
export interface WriteReferences {
  /** The account a create names by code. */
  account?: accountsV1.AccountSummary;
  /** The churn reason the body names (absent when it names none or null). */
  churnReason?: accountsV1.ChurnReason;
}

export const invalidPk = (uuid: string) => `Invalid pk "${uuid}" - object does not exist.`;

/**
 * Resolves the `account` code (create) and the `churn_reason` uuid of a write body through the
 * accounts service, both at once. Unknown ones, another organization's and deleted churn reasons
 * are 400 naming the field, every such field in one answer, as DRF's related fields report them.
 */
export async function resolveWriteReferences(
  clients: ReferenceClients,
  body: { account?: string; churn_reason?: string | null },
): Promise<WriteReferences> {
  const [account, reasons] = await Promise.all([
    body.account !== undefined ? findAccountByCode(clients, body.account) : undefined,
    typeof body.churn_reason === 'string'
      ? clients.churnReasons.call('getChurnReasons', { uuids: [body.churn_reason] })
      : undefined,
  ]);
  const references: WriteReferences = {};
  const errors: Record<string, string[]> = {};
  if (body.account !== undefined) {
    if (account) references.account = account;
    else errors.account = [accountDoesNotExist(body.account)];
  }
  if (typeof body.churn_reason === 'string') {
    const reason = reasons?.churn_reasons.find((item) => item.uuid === body.churn_reason && !item.deleted);
    if (reason) references.churnReason = reason;
    else errors.churn_reason = [invalidPk(body.churn_reason)];
  }
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  return references;
}

/** A create body as the service takes it: the writable fields (the account travels on its own). */
export function createInput(body: Record<string, unknown>) {
  const { account: _code, ...fields } = body;
  return catalogInput<subscriptionsV1.SubscriptionInput>(fields);
}

/**
 * An update body as the service takes it: the writable fields, named in `present_fields`, and the
 * options saying how the change takes effect.
 */
export function updateInput(body: Record<string, unknown>): {
  input: subscriptionsV1.SubscriptionInput;
  present_fields: string[];
  change: subscriptionsV1.ChangeOptions;
} {
  const fields: Record<string, unknown> = {};
  const change: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if ((CHANGE_OPTION_FIELDS as readonly string[]).includes(name)) change[name] = value;
    else fields[name] = value;
  }
  return { ...catalogInput<subscriptionsV1.SubscriptionInput>(fields), change };
}
