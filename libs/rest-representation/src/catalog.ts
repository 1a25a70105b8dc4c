import type { catalogV1 } from '@billing/proto';
import { nullable, tagged } from './representation.js';

export function presentPlanTerms(terms: catalogV1.PlanTerms) {
  return tagged('planterms', {
    uuid: terms.uuid,
    plan: terms.plan,
    code: terms.code,
    interval_type: terms.interval_type as 'day' | 'week' | 'month' | 'year',
    interval_count: terms.interval_count,
    price: terms.price,
    currency: terms.currency,
    backwards_charging: terms.backwards_charging,
    active: terms.active,
    revenue_group: nullable(terms.revenue_group),
  });
}

export function presentPlan(plan: catalogV1.Plan) {
  return tagged('plan', {
    uuid: plan.uuid,
    name: plan.name,
    code: plan.code,
    description: plan.description,
    collect_vat: plan.collect_vat,
    vat_type: plan.vat_type as 'physical' | 'services' | 'unknown',
    planterms_set: plan.planterms.map(presentPlanTerms),
  });
}
