import { Migration } from '@mikro-orm/migrations';

export class Migration20261122040422_catalog extends Migration {
  override name = 'Migration20261122040422_catalog';

  override up(): void {
    this.addSql(
      `create table "plan" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(256) not null, "code" varchar(128) not null, "description" text not null, "collect_vat" boolean not null, "vat_type" varchar(16) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "plan_organization_created_idx" on "plan" ("organization_id", "created_at");`);
    this.addSql(
      `alter table "plan" add constraint "plan_organization_code_unique" unique ("organization_id", "code");`,
    );

    this.addSql(
      `create table "plan_terms" ("id" uuid not null, "organization_id" uuid not null, "plan_id" uuid not null, "code" varchar(128) not null, "interval_type" varchar(8) not null, "interval_count" int not null, "price" numeric(20,6) not null, "currency" varchar(3) not null, "backwards_charging" boolean not null, "active" boolean not null, "revenue_group" varchar(128) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "plan_terms_organization_plan_idx" on "plan_terms" ("organization_id", "plan_id");`);
    this.addSql(
      `create index "plan_terms_organization_created_idx" on "plan_terms" ("organization_id", "created_at");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "plan" cascade;`);
    this.addSql(`drop table if exists "plan_terms" cascade;`);
  }
}
