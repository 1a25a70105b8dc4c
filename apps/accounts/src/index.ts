export { type AccountsModuleOptions, accountsModule, createAccountsModule } from './service.js';
export type { AccountsDeps } from './use-cases/deps.js';
export {
  type ApiTokenListing,
  createApiToken,
  createOrganization,
  disableApiToken,
  type IssuedToken,
  listApiTokens,
  listOrganizations,
  type NewOrganization,
  type OrganizationRecord,
  setRateLimit,
  updateOrganization,
} from './use-cases/organizations.js';
