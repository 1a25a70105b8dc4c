import type { WritableShape } from '@billing/domain-kit';
import type { FieldViolation } from '@billing/errors';

/** Pure rules of plans and plan terms as the REST writes see them (gaps.md §5); no I/O. */

export interface PlanFields {
  name: string;
  code: string;
  description: string;
  collect_vat: boolean;
  vat_type: string;
}

/** Create and PUT need name, code, collect_vat and vat_type; description defaults to "". */
export const PLAN_SHAPE: WritableShape<PlanFields> = {
  required: ['name', 'code', 'collect_vat', 'vat_type'],
  defaults: { description: '' },
};

export interface PlanTermsFields {
  plan: string;
  code: string;
  interval_type: string;
  interval_count: number;
  price: string;
  currency: string;
  backwards_charging: boolean;
  active: boolean;
  revenue_group: string | null;
}

/** New terms are always active (`active` sent on create is ignored); revenue_group is optional. */
export const PLAN_TERMS_SHAPE: WritableShape<PlanTermsFields> = {
  required: ['plan', 'code', 'interval_type', 'interval_count', 'price', 'currency', 'backwards_charging'],
  defaults: { revenue_group: null },
};

/** What a PATCH of plan terms may change; everything else is fixed once the terms exist. */
export const PLAN_TERMS_MUTABLE: ReadonlySet<string> = new Set(['active', 'code', 'price', 'revenue_group']);

/** The PATCH of plan terms: only the mutable fields, revenue_group the only nullable one. */
export const PLAN_TERMS_PATCH_SHAPE: WritableShape<PlanTermsFields> = {
  required: [],
  defaults: { active: true, code: '', price: '0', revenue_group: null },
};
const PLAN_TERMS_FIXED = ['plan', 'interval_type', 'interval_count', 'currency', 'backwards_charging'] as const;

export const FIXED_AFTER_CREATION = 'This field cannot be changed after creation.';

/** One violation per sent field that plan terms do not allow to change. */
export function fixedFieldViolations(present: ReadonlySet<string>): FieldViolation[] {
  return PLAN_TERMS_FIXED.filter((field) => present.has(field)).map((field) => ({
    field,
    description: FIXED_AFTER_CREATION,
  }));
}
