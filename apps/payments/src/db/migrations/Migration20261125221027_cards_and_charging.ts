import { Migration } from '@mikro-orm/migrations';

export class Migration20261125221027_cards_and_charging extends Migration {
  override name = 'Migration20261125221027_cards_and_charging';

  override up(): void {
    this.addSql(
      `create table "card_registration" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "gateway" varchar(32) not null, "currency" varchar(3) null, "redirect_url" text not null, "external_id" varchar(256) not null, "card_id" uuid null, "created_at" timestamptz not null, "completed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "card_registration_external_idx" on "card_registration" ("gateway", "external_id");`);

    this.addSql(
      `create table "invoice_payment" ("invoice_id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "invoice_number" varchar(32) not null, "amount" numeric(20,6) not null, "currency" varchar(3) not null, "status" varchar(16) not null, "test_clock" boolean not null, "next_attempt_at" timestamptz null, "first_attempt_at" timestamptz null, "attempts_made" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, primary key ("invoice_id"));`,
    );
    this.addSql(`create index "invoice_payment_due_idx" on "invoice_payment" ("status", "next_attempt_at");`);
    this.addSql(`create index "invoice_payment_organization_idx" on "invoice_payment" ("organization_id", "status");`);

    this.addSql(
      `create table "payment_attempt" ("id" uuid not null, "organization_id" uuid not null, "invoice_id" uuid not null, "account_id" uuid not null, "card_id" uuid not null, "gateway" varchar(32) not null, "amount" numeric(20,6) not null, "currency" varchar(3) not null, "number" int not null, "outcome" varchar(16) not null, "gateway_reference" varchar(256) not null default '', "decline_reason" varchar(256) not null default '', "attempted_at" timestamptz not null, "completed_at" timestamptz null, "settled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "payment_attempt_settle_idx" on "payment_attempt" ("outcome", "settled_at");`);
    this.addSql(
      `alter table "payment_attempt" add constraint "payment_attempt_invoice_number_uniq" unique ("invoice_id", "number");`,
    );

    this.addSql(
      `create table "payment_card" ("id" uuid not null, "organization_id" uuid not null, "account_id" uuid not null, "active" boolean not null, "brand" varchar(32) not null, "last4" varchar(4) not null, "month" int not null, "year" int not null, "name" varchar(256) not null, "gateway" varchar(32) not null, "gateway_id" varchar(256) not null, "gateway_customer" varchar(256) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "version" int not null, "expiry_notice_month" varchar(7) null, primary key ("id"));`,
    );
    this.addSql(
      `create index "payment_card_organization_account_idx" on "payment_card" ("organization_id", "account_id");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "card_registration" cascade;`);
    this.addSql(`drop table if exists "invoice_payment" cascade;`);
    this.addSql(`drop table if exists "payment_attempt" cascade;`);
    this.addSql(`drop table if exists "payment_card" cascade;`);
  }
}
