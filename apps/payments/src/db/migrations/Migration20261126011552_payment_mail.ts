import { Migration } from '@mikro-orm/migrations';

export class Migration20261126011552_payment_mail extends Migration {
  override name = 'Migration20261126011552_payment_mail';

  override up(): void {
    this.addSql(
      `create table "payment_mail" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "kind" varchar(32) not null, "subject_id" uuid not null, "facts" jsonb not null, "attempts" int not null, "last_error" text null, "sent_to" jsonb null, "sent_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "payment_mail_pending_idx" on "payment_mail" ("sent_at", "created_at");`);
    this.addSql(
      `alter table "payment_mail" add constraint "payment_mail_kind_subject_unique" unique ("kind", "subject_id");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "payment_mail" cascade;`);
  }
}
