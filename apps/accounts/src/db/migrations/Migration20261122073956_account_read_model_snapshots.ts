import { Migration } from '@mikro-orm/migrations';

export class Migration20261122073956_account_read_model_snapshots extends Migration {
  override name = 'Migration20261122073956_account_read_model_snapshots';

  override up(): void {
    this.addSql(
      `create table "account_draft_line" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "version" int not null, "created_date" timestamptz not null, "snapshot" bytea not null, "removed" boolean not null default false, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "account_draft_line_organization_account_idx" on "account_draft_line" ("organization_id", "account_id");`,
    );

    this.addSql(
      `alter table "account_subscription" add "version" int not null default 0, add "created_date" timestamptz null, add "snapshot" bytea null;`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "account_draft_line" cascade;`);

    this.addSql(
      `alter table "account_subscription" drop column "version", drop column "created_date", drop column "snapshot";`,
    );
  }
}
