/** An account named as the buyer of a sale: what decides its VAT, and its uuid for its contract. */
export interface BuyerAccount {
  /** Selects the account's contract (its tiers price the line). */
  uuid: string;
  /** ISO 3166-1 alpha-2. */
  legal_country: string;
  /** "" or blanks: none (decideVat reads it as such). */
  legal_vat_number: string;
}

/** Who might be buying, as a price request names it (gaps.md §5). */
export interface BuyerFacts {
  /** The account named by `account_code`, already found; null or absent: no account named. */
  account?: BuyerAccount | null;
  /** `account_country_code`: the country of a person buying; null or absent: not given. */
  requested_country?: string | null;
  /** The organization's (the seller's) country: where a person buys when nothing else is said. */
  organization_country: string;
}

/** The buyer the VAT rule (decideVat) and the contract lookup work with. */
export interface Buyer {
  /** The account whose contract applies; null for a person, who has none. */
  account: string | null;
  country: string;
  /** "" for a person: none. */
  vat_number: string;
}

/**
 * The buyer of a price calculation (gaps.md §5, for the VAT of §7): the account named by code
 * (its legal country and VAT number; its contract applies), else a person in the requested
 * country, else a person in the organization's own country. A named account wins over a
 * requested country: the account's legal country is the fact VAT needs, a second country in the
 * same request cannot override it. A person has no VAT number, so another EU state's person pays
 * the seller's rate (decideVat rule 7), never reverse charge.
 */
export function decideBuyer(facts: BuyerFacts): Buyer {
  if (facts.account) {
    return {
      account: facts.account.uuid,
      country: facts.account.legal_country,
      vat_number: facts.account.legal_vat_number,
    };
  }
  return { account: null, country: facts.requested_country ?? facts.organization_country, vat_number: '' };
}
