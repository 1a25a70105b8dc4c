import type { ContractFields, TierFields } from './contract-fields.js';

/** A contract tier as the service presents it: its fields as stored, the discount presented (presentPrice). */
export interface TierView extends TierFields {
  id: string;
}

/** A contract with its tiers (oldest first): API replies and contract events. */
export interface ContractView extends ContractFields {
  uuid: string;
  /** The account's uuid. */
  account: string;
  tiers: TierView[];
}
