import { Migration } from '@mikro-orm/migrations';

export class Migration20261126021031_einvoices extends Migration {
  override name = 'Migration20261126021031_einvoices';

  override up(): void {
    this.addSql(
      `create table "einvoice_delivery" ("invoice_id" uuid not null, "organization_id" uuid not null, "on_test_clock" boolean not null, "step" int not null, "attempts" int not null, "next_attempt_at" timestamptz null, "last_status_code" int null, "last_error" text null, "delivered_at" timestamptz null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("invoice_id"));`,
    );
    this.addSql(
      `create index "einvoice_delivery_due_idx" on "einvoice_delivery" ("on_test_clock", "organization_id", "next_attempt_at");`,
    );

    this.addSql(`alter table "invoice" add "einvoice" jsonb null, add "einvoice_status" varchar(16) null;`);
  }

  override down(): void {
    this.addSql(`drop table if exists "einvoice_delivery" cascade;`);

    this.addSql(`alter table "invoice" drop column "einvoice", drop column "einvoice_status";`);
  }
}
