import { Migration } from '@mikro-orm/migrations';

export class Migration20261122030507_initial extends Migration {
  override name = 'Migration20261122030507_initial';

  override up(): void {
    this.addSql(
      `create table "handled_effect" ("id" uuid not null, "event_id" uuid not null, "event_type" text not null, primary key ("id"));`,
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
    this.addSql(`drop table if exists "handled_effect" cascade;`);
    this.addSql(`drop table if exists "inbox" cascade;`);
    this.addSql(`drop table if exists "outbox" cascade;`);
  }
}
