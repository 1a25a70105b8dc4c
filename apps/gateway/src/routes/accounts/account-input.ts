import type { accountsV1 } from '@billing/proto';
import type { AccountBodyValues } from './account-schemas.js';

/**
 * A validated REST body as protobuf: every sent field is named in `present_fields`; a sent null
 * travels as an unset optional (the service reads "present but unset" as null).
 */
export function accountInput(body: AccountBodyValues): { account: accountsV1.AccountInput; present_fields: string[] } {
  const account: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (value === null || value === undefined) continue;
    account[name] = name === 'partner' ? String(value) : value;
  }
  return { account: account as accountsV1.AccountInput, present_fields: Object.keys(body) };
}
