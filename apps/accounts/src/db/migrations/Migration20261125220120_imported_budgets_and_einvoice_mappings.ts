import { Migration } from '@mikro-orm/migrations';

export class Migration20261125220120_imported_budgets_and_einvoice_mappings extends Migration {
  override name = 'Migration20261125220120_imported_budgets_and_einvoice_mappings';

  override up(): void {
    this.addSql(
      `create table "account_budget" ("id" serial primary key, "organization_id" uuid not null, "budget_id" varchar(128) not null, "erp_account_uuid" uuid not null, "erp_account_name" varchar(256) not null, "erp_account_display_name" varchar(256) not null, "erp_account_number" int not null, "erp_account_vat_code" varchar(32) not null, "erp_account_type" varchar(32) not null, "erp_account_totals_from" int null, "erp_account_totals_to" int null, "start_date" varchar(10) not null, "end_date" varchar(10) not null, "start_amount" numeric(20,2) not null, "calculated_amount" numeric(20,2) not null, "imported_at" timestamptz not null);`,
    );
    this.addSql(
      `alter table "account_budget" add constraint "account_budget_identity_unique" unique ("organization_id", "budget_id", "erp_account_number", "start_date");`,
    );

    this.addSql(
      `create table "einvoice_field_mapping" ("id" uuid not null, "organization_id" uuid not null, "format" varchar(32) not null, "target_field" varchar(64) not null, "source_type" varchar(32) not null, "source_builtin_field" varchar(64) not null, "source_custom_field" uuid null, "imported_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(
      `alter table "einvoice_field_mapping" add constraint "einvoice_field_mapping_target_unique" unique ("organization_id", "format", "target_field");`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "account_budget" cascade;`);
    this.addSql(`drop table if exists "einvoice_field_mapping" cascade;`);
  }
}
