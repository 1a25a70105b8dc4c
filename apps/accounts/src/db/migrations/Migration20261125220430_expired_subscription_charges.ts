import { Migration } from '@mikro-orm/migrations';

export class Migration20261125220430_expired_subscription_charges extends Migration {
  override name = 'Migration20261125220430_expired_subscription_charges';

  override up(): void {
    this.addSql(
      `create table "account_charge" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "subscription_id" uuid not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "account_charge_organization_account_idx" on "account_charge" ("organization_id", "account_id");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "account_charge" cascade;`);
  }
}
