/** Where the customer's self-service pages live on the gateway's host (docs/api.md "Self-service"). */
export const SELF_SERVICE_ROOT = '/self-service/';
export const SELF_SERVICE_SIGN_OUT = '/self-service/sign-out/';

export const selfServiceSignInPath = (token: string): string => `/self-service/sign-in/${encodeURIComponent(token)}/`;
export const selfServiceAccountPath = (account: string): string => `/self-service/accounts/${account}/`;
export const selfServiceInvoicePdfPath = (account: string, invoice: string): string =>
  `${selfServiceAccountPath(account)}invoices/${invoice}/pdf/`;
export const selfServiceCardDisablePath = (account: string, card: string): string =>
  `${selfServiceAccountPath(account)}cards/${card}/disable/`;
export const selfServiceAddCardPath = (account: string): string => `${selfServiceAccountPath(account)}cards/add/`;
