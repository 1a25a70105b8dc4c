import type { WritableShape } from '@billing/domain-kit';

export interface RecipientFields {
  account: string;
  name: string;
  email: string;
  receive_invoice: boolean;
  receive_payment_confirmation: boolean;
  receive_payment_card_notifications: boolean;
  receive_subscription_notifications: boolean;
}

/** gaps.md §4; notification flags start off so nobody is mailed until asked for (docs/api.md). */
export const RECIPIENT_SHAPE: WritableShape<RecipientFields> = {
  required: ['account', 'name', 'email'],
  defaults: {
    receive_invoice: false,
    receive_payment_confirmation: false,
    receive_payment_card_notifications: false,
    receive_subscription_notifications: false,
  },
};
