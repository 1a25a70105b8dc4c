import { Migration } from '@mikro-orm/migrations';

export class Migration20261126074229_activity_invoice_index extends Migration {
  override name = 'Migration20261126074229_activity_invoice_index';

  override up(): void {
    this.addSql(`create index "activity_organization_invoice_idx" on "activity" ("organization_id", "invoice_id");`);
  }

  override down(): void {
    this.addSql(`drop index "activity_organization_invoice_idx";`);
  }
}
