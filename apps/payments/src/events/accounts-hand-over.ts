import { PAYMENT_CARD_EVENT_TYPES } from './card-events.js';

/**
 * The events the accounts read model is built from (paymentcard_set, active_payment_method),
 * handed straight to it after each commit so a client reads its write back at once; its stream
 * consumer reads the same subjects.
 */
export const ACCOUNTS_READ_MODEL_EVENT_TYPES = [...PAYMENT_CARD_EVENT_TYPES];
