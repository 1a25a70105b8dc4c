import { Migration } from '@mikro-orm/migrations';

export class Migration20261125233039_event_log extends Migration {
  override name = 'Migration20261125233039_event_log';

  override up(): void {
    this.addSql(
      `create table "event_log" ("position" bigserial primary key, "event_id" uuid not null, "organization_id" uuid not null, "event_type" varchar(64) not null, "payload_type" varchar(128) not null, "occurred_at" timestamptz not null, "payload" bytea not null);`,
    );
    this.addSql(`alter table "event_log" add constraint "event_log_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "event_log_organization_position_idx" on "event_log" ("organization_id", "position");`);
  }

  override down(): void {
    this.addSql(`drop table if exists "event_log" cascade;`);
  }
}
