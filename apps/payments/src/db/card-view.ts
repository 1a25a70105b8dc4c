import { maskedCardNumber, type PaymentCardView } from '../domain/payment-card.js';
import type { PaymentCardRow } from './entities/payment-card.entity.js';

export function paymentCardView(row: PaymentCardRow): PaymentCardView {
  return {
    uuid: row.id,
    account: row.account_id,
    active: row.active,
    brand: row.brand,
    card_number: maskedCardNumber(row.last4),
    month: row.month,
    year: row.year,
    name: row.name,
    payment_gateway: row.gateway,
    payment_gateway_id: row.gateway_id,
    created_date: row.created_at,
    version: row.version,
  };
}
