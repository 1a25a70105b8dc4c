import type { FieldViolation } from '@billing/errors';

/** The currencies a card registration link may name (api-spec card-registration-link). */
export const REGISTRATION_CURRENCIES = ['DKK', 'NOK', 'SEK', 'EUR', 'USD'] as const;

/** api-spec: `currency` is required for cardgw_b and cardgw_c_easy. */
const NEEDS_CURRENCY = new Set(['cardgw_b', 'cardgw_c_easy']);
/** api-spec: `redirect_url` for all but cardgw_c_easy (its redirect is part of its integration settings). */
const TAKES_REDIRECT_FROM_SETTINGS = new Set(['cardgw_c_easy']);

export interface RegistrationLinkRequest {
  gateway: string;
  currency: string | null;
  redirectUrl: string | null;
}

function isAbsoluteUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** The link request's problems, by the spec's rules for each gateway. */
export function registrationLinkViolations(request: RegistrationLinkRequest): FieldViolation[] {
  const violations: FieldViolation[] = [];
  if (request.currency === null || request.currency === '') {
    if (NEEDS_CURRENCY.has(request.gateway))
      violations.push({ field: 'currency', description: 'This field is required.' });
  } else if (!(REGISTRATION_CURRENCIES as readonly string[]).includes(request.currency)) {
    violations.push({ field: 'currency', description: `"${request.currency}" is not a valid choice.` });
  }
  if (request.redirectUrl === null || request.redirectUrl === '') {
    if (!TAKES_REDIRECT_FROM_SETTINGS.has(request.gateway)) {
      violations.push({ field: 'redirect_url', description: 'This field is required.' });
    }
  } else if (!isAbsoluteUrl(request.redirectUrl)) {
    violations.push({ field: 'redirect_url', description: 'Enter a valid URL.' });
  }
  return violations;
}
