import { Migration } from '@mikro-orm/migrations';

export class Migration20261122050401_test_clock_and_churn_reasons extends Migration {
  override name = 'Migration20261122050401_test_clock_and_churn_reasons';

  override up(): void {
    this.addSql(
      `create table "churn_reason" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(100) not null, "is_active" boolean not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "deleted_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "churn_reason_organization_created_idx" on "churn_reason" ("organization_id", "created_at");`,
    );

    this.addSql(`alter table "organization" add "test_clock_time" timestamptz null;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "churn_reason" cascade;`);

    this.addSql(`alter table "organization" drop column "test_clock_time";`);
  }
}
