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
}
