import { Migration } from '@mikro-orm/migrations';

export class Migration20261122025917_initial extends Migration {
  override name = 'Migration20261122025917_initial';

  override up(): void {
    this.addSql(
      `create table "audit_log" ("id" uuid not null, "organization_id" text not null, "api_user_id" text null, "client_system" text null, "external_user" text null, "request_id" text null, "action" text not null, "object_type" text not null, "object_id" text not null, "occurred_at" timestamptz not null, "details" jsonb null, primary key ("id"));`,
    );
    this.addSql(
      `create index "audit_log_organization_occurred_idx" on "audit_log" ("organization_id", "occurred_at");`,
    );

    this.addSql(
      `create table "widget" ("id" uuid not null, "code" text not null, "quantity" int not null, primary key ("id"));`,
    );
    this.addSql(`alter table "widget" add constraint "widget_code_unique" unique ("code");`);

    this.addSql(`create table "widget_part" ("id" uuid not null, "widget_id" uuid not null, primary key ("id"));`);

    this.addSql(
      `alter table "widget_part" add constraint "widget_part_widget_id_foreign" foreign key ("widget_id") references "widget" ("id");`,
    );
  }

  override down(): void {
    this.addSql(`alter table "widget_part" drop constraint "widget_part_widget_id_foreign";`);

    this.addSql(`drop table if exists "audit_log" cascade;`);
    this.addSql(`drop table if exists "widget" cascade;`);
    this.addSql(`drop table if exists "widget_part" cascade;`);
  }
}
