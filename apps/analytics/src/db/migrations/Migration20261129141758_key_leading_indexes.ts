import { Migration } from '@mikro-orm/migrations';

/**
 * The indexes of the per-key lookups lead with the key (account_id) instead of organization_id:
 * rowsPerKey (db/sql-rows.ts) now matches the key in the index and tests the organization on the
 * rows found, so that without planner statistics no other (organization_id, …) index can be taken
 * for the lookup (entities/activity.entity.ts says what that cost).
 */
export class Migration20261129141758_key_leading_indexes extends Migration {
  override name = 'Migration20261129141758_key_leading_indexes';

  override up(): void {
    this.addSql(`drop index "account_activity_organization_account_idx";`);
    this.addSql(`create index "account_activity_account_idx" on "account_activity" ("account_id", "organization_id");`);

    this.addSql(`drop index "activity_organization_account_idx";`);
    this.addSql(`create index "activity_account_idx" on "activity" ("account_id", "organization_id", "date");`);

    this.addSql(`drop index "subscription_mrr_organization_account_idx";`);
    this.addSql(`create index "subscription_mrr_account_idx" on "subscription_mrr" ("account_id", "organization_id");`);
  }

  override down(): void {
    this.addSql(`drop index "account_activity_account_idx";`);
    this.addSql(
      `create index "account_activity_organization_account_idx" on "account_activity" ("organization_id", "account_id");`,
    );

    this.addSql(`drop index "activity_account_idx";`);
    this.addSql(
      `create index "activity_organization_account_idx" on "activity" ("organization_id", "account_id", "date");`,
    );

    this.addSql(`drop index "subscription_mrr_account_idx";`);
    this.addSql(
      `create index "subscription_mrr_organization_account_idx" on "subscription_mrr" ("organization_id", "account_id");`,
    );
  }
}
