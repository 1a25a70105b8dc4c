import { Migration } from '@mikro-orm/migrations';

export class Migration20261125215808_webhooks extends Migration {
  override name = 'Migration20261125215808_webhooks';

  override up(): void {
    this.addSql(
      `create table "webhook" ("id" uuid not null, "organization_id" uuid not null, "endpoint" varchar(200) not null, "basic_auth_username" varchar(150) not null, "basic_auth_password" varchar(150) not null, "enabled" boolean not null, "events" jsonb not null, "secret" varchar(64) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "webhook_organization_created_idx" on "webhook" ("organization_id", "created_at");`);

    this.addSql(
      `create table "webhook_attempt" ("id" uuid not null, "organization_id" uuid not null, "delivery_id" uuid not null, "attempted_at" timestamptz not null, "response_status" int null, "error" text not null, "duration_ms" int not null, primary key ("id"));`,
    );
    this.addSql(`create index "webhook_attempt_delivery_idx" on "webhook_attempt" ("delivery_id", "attempted_at");`);

    this.addSql(
      `create table "webhook_delivery" ("id" uuid not null, "organization_id" uuid not null, "webhook_id" uuid not null, "event_name" varchar(64) not null, "event_id" uuid not null, "payload" text not null, "status" varchar(16) not null, "step" int not null, "next_attempt_at" timestamptz null, "lease_until" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "webhook_delivery_webhook_created_idx" on "webhook_delivery" ("webhook_id", "created_at");`,
    );
    this.addSql(`create index "webhook_delivery_due_idx" on "webhook_delivery" ("status", "next_attempt_at");`);
    this.addSql(
      `alter table "webhook_delivery" add constraint "webhook_delivery_webhook_event_unique" unique ("webhook_id", "event_id");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "webhook" cascade;`);
    this.addSql(`drop table if exists "webhook_attempt" cascade;`);
    this.addSql(`drop table if exists "webhook_delivery" cascade;`);
  }
}
