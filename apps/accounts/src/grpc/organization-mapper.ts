import type { commonV1 } from '@billing/proto';
import type { BankAccountRow } from '../db/entities/bank-account.entity.js';

export function bankAccountMessage(row: BankAccountRow): commonV1.BankAccount {
  return {
    id: row.id,
    ...(row.currency ? { currency: row.currency } : {}),
    iban: row.iban,
    bic: row.bic,
    reg_number: row.reg_number,
    account_number: row.account_number,
  };
}
