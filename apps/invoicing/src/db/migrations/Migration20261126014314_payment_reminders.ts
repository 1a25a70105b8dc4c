import { Migration } from '@mikro-orm/migrations';

export class Migration20261126014314_payment_reminders extends Migration {
  override name = 'Migration20261126014314_payment_reminders';

  override up(): void {
    this.addSql(
      `create table "invoice_reminder" ("id" uuid not null, "organization_id" uuid not null, "invoice_id" uuid not null, "number" int not null, "date" varchar(10) not null, "days_after_due" int not null, "fee" numeric(20,6) null, "fee_draft_line_id" uuid null, "recipients" jsonb not null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "invoice_reminder" add constraint "invoice_reminder_invoice_number_unique" unique ("invoice_id", "number");`,
    );

    this.addSql(`alter table "mail_job" add "reminder_id" uuid null;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "invoice_reminder" cascade;`);

    this.addSql(`alter table "mail_job" drop column "reminder_id";`);
  }
}
