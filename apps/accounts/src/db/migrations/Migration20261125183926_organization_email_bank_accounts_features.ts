import { Migration } from '@mikro-orm/migrations';

export class Migration20261125183926_organization_email_bank_accounts_features extends Migration {
  override name = 'Migration20261125183926_organization_email_bank_accounts_features';

  override up(): void {
    this.addSql(
      `create table "bank_account" ("id" serial primary key, "organization_id" uuid not null, "currency" varchar(3) null, "iban" varchar(34) not null, "bic" varchar(11) not null, "reg_number" varchar(4) not null, "account_number" varchar(10) not null, "created_at" timestamptz not null, "removed_at" timestamptz null);`,
    );
    this.addSql(`create index "bank_account_organization_idx" on "bank_account" ("organization_id");`);

    this.addSql(`alter table "organization" add "email" varchar(254) not null default '';`);

    // gaps.md §11: self_service is on by default. No command could set feature flags before this
    // migration, so no organization chose to have it off: every existing one gets the default.
    this.addSql(
      `update "organization" set "features" = "features" || '["self_service"]'::jsonb where not "features" @> '["self_service"]'::jsonb;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "bank_account" cascade;`);

    this.addSql(`alter table "organization" drop column "email";`);
  }
}
