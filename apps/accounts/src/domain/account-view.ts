import type { AccountFields } from './account.js';
import type { RecipientFields } from './recipient.js';

export interface RecipientView extends RecipientFields {
  uuid: string;
  account_code: string;
  has_access_to_self_service: boolean;
}

export interface PaymentGatewayAccountView {
  uuid: string;
  payment_gateway: string;
  payment_gateway_account_id: string;
}

/** An account with everything a read returns (response-only fields and its sets). */
export interface AccountView extends AccountFields {
  uuid: string;
  reseller_code: string;
  display_name: string;
  created_date: Date;
  last_modified_date: Date;
  eu_vat_status: string;
  register_status: string | null;
  industry: string;
  is_archived: boolean;
  recipients: RecipientView[];
  payment_gateway_accounts: PaymentGatewayAccountView[];
  /**
   * The account's subscriptions and its draft lines not invoiced yet (each oldest first), from the
   * read model fed by the subscriptions' and invoicing services' events: the encoded messages as
   * stored, decoded only by the gRPC mapper (the rules here never look inside them).
   */
  read_model: AccountReadModelSnapshots;
}

export interface AccountReadModelSnapshots {
  /** Encoded billing.subscriptions.v1.Subscription messages. */
  subscriptions: Uint8Array[];
  /** Encoded billing.invoicing.v1.DraftLine messages. */
  draft_lines: Uint8Array[];
  /** Encoded billing.payments.v1.PaymentCard messages. */
  payment_cards: Uint8Array[];
}

/** What an account has in the read model before any event named it (and what events carry). */
export const EMPTY_READ_MODEL: AccountReadModelSnapshots = { subscriptions: [], draft_lines: [], payment_cards: [] };
