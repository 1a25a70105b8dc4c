import { Migration } from '@mikro-orm/migrations';

export class Migration20261125222456_invoice_read_model_backfill extends Migration {
  override name = 'Migration20261125222456_invoice_read_model_backfill';

  override up(): void {
    this.addSql(
      `create table "invoice_read_model_backfill" ("invoice_id" uuid not null, "organization_id" uuid not null, primary key ("invoice_id"));`,
    );
    // Invoices issued before their state was published to the accounts read model (balance filter,
    // delete rule): each is published once more by the read-model backfill worker.
    this.addSql(
      `insert into "invoice_read_model_backfill" ("invoice_id", "organization_id") select "id", "organization_id" from "invoice" where "status" <> 'pending';`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "invoice_read_model_backfill" cascade;`);
  }
}
