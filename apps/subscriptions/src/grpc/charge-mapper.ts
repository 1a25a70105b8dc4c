import type { chargesV1 } from '@billing/proto';
import type { ChargeView } from '../domain/charge-view.js';

/** A charge as the proto carries it (charge.created, and the renewal preview's reply). */
export function chargeMessage(view: ChargeView): chargesV1.Charge {
  return {
    ...view,
    lines: view.lines.map((line) => ({
      ...line,
      tiers_applied: line.tiers_applied.map((tier) => ({
        ...tier,
        maximum_quantity: tier.maximum_quantity ?? undefined,
      })),
      revenue_group: line.revenue_group ?? undefined,
    })),
    payment_terms: view.payment_terms ?? undefined,
    invoice_supplement: view.invoice_supplement ?? undefined,
  };
}
