import type { FieldViolation } from '@billing/errors';
import { CHANGE_TYPES, type ChangeType } from './lifecycle/index.js';

/** How an update asks its term or quantity change to take effect (the REST change fields, as sent). */
export interface ChangeOptions {
  change_type?: string | undefined;
  prorate_date?: Date | undefined;
  change_renewal?: number | undefined;
  early_renewal?: boolean | undefined;
  /** Deprecated. */
  prorate?: boolean | undefined;
}

/** How an update's term or quantity change takes effect, checked (gaps §6 field combinations). */
export interface ChangeRequest {
  type: ChangeType;
  prorateDate: Date | null;
  renewals: number;
  earlyRenewal: boolean;
  /** Deprecated `prorate`; undefined when not sent. */
  prorate: boolean | undefined;
  violations: FieldViolation[];
}

export function changeRequest(options: ChangeOptions | undefined): ChangeRequest {
  const violations: FieldViolation[] = [];
  const raw = options?.change_type ?? 'immediate';
  const type = (CHANGE_TYPES as readonly string[]).includes(raw) ? (raw as ChangeType) : 'immediate';
  if (type !== raw) violations.push({ field: 'change_type', description: `"${raw}" is not a valid choice.` });
  const prorateDate = options?.prorate_date ?? null;
  if (prorateDate && type !== 'at_specified_time') {
    violations.push({ field: 'prorate_date', description: 'Only allowed with change_type at_specified_time.' });
  }
  if (!prorateDate && type === 'at_specified_time') {
    violations.push({
      field: 'prorate_date',
      description: 'This field is required with change_type at_specified_time.',
    });
  }
  const renewals = options?.change_renewal;
  if (renewals !== undefined) {
    if (type !== 'at_renewal')
      violations.push({ field: 'change_renewal', description: 'Only allowed with change_type at_renewal.' });
    else if (!Number.isInteger(renewals) || renewals < 0 || renewals > 11) {
      violations.push({ field: 'change_renewal', description: 'Ensure this value is between 0 and 11.' });
    }
  }
  const earlyRenewal = options?.early_renewal ?? false;
  if (earlyRenewal && type === 'at_renewal') {
    violations.push({
      field: 'early_renewal',
      description: 'Only allowed with change_type immediate or at_specified_time.',
    });
  }
  return { type, prorateDate, renewals: renewals ?? 0, earlyRenewal, prorate: options?.prorate, violations };
}
