import { Migration } from '@mikro-orm/migrations';

export class Migration20261126020419_subscription_notice_mail extends Migration {
  override name = 'Migration20261126020419_subscription_notice_mail';

  override up(): void {
    this.addSql(
      `create table "subscription_notice_mail" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "subscription_id" uuid not null, "cause" uuid not null, "kind" varchar(16) not null, "from_name" varchar(256) not null, "reply_to" varchar(254) not null, "recipients" jsonb not null, "subject" text not null, "text" text not null, "attempts" int not null, "last_error" text null, "sent_at" timestamptz null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `create index "subscription_notice_mail_pending_idx" on "subscription_notice_mail" ("sent_at", "created_at");`,
    );
    this.addSql(
      `alter table "subscription_notice_mail" add constraint "subscription_notice_mail_cause_unique" unique ("cause");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "subscription_notice_mail" cascade;`);
  }
}
