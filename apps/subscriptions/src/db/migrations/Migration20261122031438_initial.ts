import { Migration } from '@mikro-orm/migrations';

export class Migration20261122031438_initial extends Migration {
  override name = 'Migration20261122031438_initial';

  override up(): void {
    this.addSql(
      `create table "audit_log" ("id" uuid not null, "organization_id" text not null, "api_user_id" text null, "client_system" text null, "external_user" text null, "request_id" text null, "action" text not null, "object_type" text not null, "object_id" text not null, "occurred_at" timestamptz not null, "details" jsonb null, primary key ("id"));`,
    );
    this.addSql(
      `create index "audit_log_organization_occurred_idx" on "audit_log" ("organization_id", "occurred_at");`,
    );

    this.addSql(
      `create table "inbox" ("consumer" text not null, "message_id" uuid not null, "processed_at" timestamptz not null, primary key ("consumer", "message_id"));`,
    );

    this.addSql(
      `create table "outbox" ("id" uuid not null, "position" bigserial, "subject" text not null, "payload" bytea not null, "created_at" timestamptz not null, "published_at" timestamptz null, "attempts" int not null default 0, "last_error" text null, primary key ("id"));`,
    );
    this.addSql(`create index "outbox_unpublished_idx" on "outbox" ("position") where "published_at" is null;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "audit_log" cascade;`);
    this.addSql(`drop table if exists "inbox" cascade;`);
    this.addSql(`drop table if exists "outbox" cascade;`);
  }
}
