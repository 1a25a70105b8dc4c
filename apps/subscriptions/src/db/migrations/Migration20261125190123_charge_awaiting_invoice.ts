import { Migration } from '@mikro-orm/migrations';

export class Migration20261125190123_charge_awaiting_invoice extends Migration {
  override name = 'Migration20261125190123_charge_awaiting_invoice';

  override up(): void {
    this.addSql(`alter table "charge" add "awaiting_invoice" boolean not null default false;`);
    this.addSql(`create index "charge_awaiting_invoice_idx" on "charge" ("organization_id") where "awaiting_invoice";`);
  }

  override down(): void {
    this.addSql(`drop index "charge_awaiting_invoice_idx";`);
    this.addSql(`alter table "charge" drop column "awaiting_invoice";`);
  }
}
