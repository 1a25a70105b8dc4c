import { Migration } from '@mikro-orm/migrations';

export class Migration20261126012911_export_jobs extends Migration {
  override name = 'Migration20261126012911_export_jobs';

  override up(): void {
    this.addSql(
      `create table "export_job" ("id" uuid not null, "organization_id" uuid not null, "kind" varchar(32) not null, "params" bytea not null, "context" jsonb not null, "status" varchar(16) not null, "progress" int not null, "rows" bigint not null, "pages" int not null, "attempts" int not null, "failure_reason" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "on_test_clock" boolean not null, "started_at" timestamptz null, "finished_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "export_job_queue_idx" on "export_job" ("status", "created_at");`);
    this.addSql(`create index "export_job_expiry_idx" on "export_job" ("on_test_clock", "expires_at");`);

    this.addSql(
      `create table "export_page" ("job_id" uuid not null, "index" int not null, "rows" int not null, "data" bytea not null, primary key ("job_id", "index"));`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "export_job" cascade;`);
    this.addSql(`drop table if exists "export_page" cascade;`);
  }
}
