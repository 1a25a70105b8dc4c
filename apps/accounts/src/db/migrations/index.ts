import { Migration20261122031437_initial } from './Migration20261122031437_initial.js';
import { Migration20261122050401_test_clock_and_churn_reasons } from './Migration20261122050401_test_clock_and_churn_reasons.js';
import { Migration20261122050457_subscription_read_model } from './Migration20261122050457_subscription_read_model.js';
import { Migration20261122064839_organization_seller_details } from './Migration20261122064839_organization_seller_details.js';
import { Migration20261122073956_account_read_model_snapshots } from './Migration20261122073956_account_read_model_snapshots.js';
import { Migration20261125183926_organization_email_bank_accounts_features } from './Migration20261125183926_organization_email_bank_accounts_features.js';
import { Migration20261125184408_invoice_read_model_and_payment_means } from './Migration20261125184408_invoice_read_model_and_payment_means.js';
import { Migration20261125215808_webhooks } from './Migration20261125215808_webhooks.js';
import { Migration20261125220120_imported_budgets_and_einvoice_mappings } from './Migration20261125220120_imported_budgets_and_einvoice_mappings.js';
import { Migration20261125220430_expired_subscription_charges } from './Migration20261125220430_expired_subscription_charges.js';
import { Migration20261125223429_export_jobs } from './Migration20261125223429_export_jobs.js';
import { Migration20261125225137_subscription_renewal_notices } from './Migration20261125225137_subscription_renewal_notices.js';

export const migrations = [
  Migration20261122031437_initial,
  Migration20261122050401_test_clock_and_churn_reasons,
  Migration20261122050457_subscription_read_model,
  Migration20261122064839_organization_seller_details,
  Migration20261122073956_account_read_model_snapshots,
  Migration20261125183926_organization_email_bank_accounts_features,
  Migration20261125184408_invoice_read_model_and_payment_means,
  Migration20261125215808_webhooks,
  Migration20261125220120_imported_budgets_and_einvoice_mappings,
  Migration20261125220430_expired_subscription_charges,
  Migration20261125223429_export_jobs,
  Migration20261125225137_subscription_renewal_notices,
];
