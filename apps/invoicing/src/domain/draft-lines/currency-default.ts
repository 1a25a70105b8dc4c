import type { Write, WriteMode } from '@billing/domain-kit';
import type { DraftLineFields } from './fields.js';

/**
 * gaps.md §3: create and PUT require only account, description and vat_type; a line written
 * without currency is in the organization's base currency. A PATCH without currency keeps the
 * line's own. A currency sent as null is not "left out": the shape refuses it.
 */
export function takesBaseCurrency(write: Write<DraftLineFields>, mode: WriteMode): boolean {
  return mode !== 'patch' && !write.present.has('currency');
}

/**
 * The write as the shape applies it: with `baseCurrency` in place of a currency left out where
 * takesBaseCurrency says so, otherwise unchanged. Pure, so the caller fetches the base currency
 * (a call to the accounts service) only when this needs it.
 */
export function withBaseCurrency(
  write: Write<DraftLineFields>,
  mode: WriteMode,
  baseCurrency: string,
): Write<DraftLineFields> {
  if (!takesBaseCurrency(write, mode)) return write;
  return {
    values: { ...write.values, currency: baseCurrency },
    present: new Set([...write.present, 'currency']),
  };
}
