import { Migration } from '@mikro-orm/migrations';

export class Migration20261122050457_subscription_read_model extends Migration {
  override name = 'Migration20261122050457_subscription_read_model';

  override up(): void {
    this.addSql(
      `create table "account_subscription" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "status" varchar(32) not null, "collection_method" varchar(32) not null, "last_modified_date" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "account_subscription_organization_account_idx" on "account_subscription" ("organization_id", "account_id");`,
    );
    this.addSql(
      `create index "account_subscription_organization_status_idx" on "account_subscription" ("organization_id", "status");`,
    );

    this.addSql(
      `alter table "account_billing_summary" drop column "non_expired_subscriptions", drop column "subscription_collection_methods", drop column "subscription_set_to_expire", drop column "subscription_statuses";`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "account_subscription" cascade;`);

    this.addSql(
      `alter table "account_billing_summary" add "non_expired_subscriptions" int not null, add "subscription_collection_methods" jsonb not null, add "subscription_set_to_expire" boolean not null, add "subscription_statuses" jsonb not null;`,
    );
  }
}
