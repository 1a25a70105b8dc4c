import { Migration } from '@mikro-orm/migrations';

/**
 * An invoice's activities are looked up by an index that leads with the invoice, the organization
 * tested on the rows found (db/invoice-activity-store.ts), as the per-key lookups of
 * key_leading_indexes: so no other (organization_id, …) index can be taken for them.
 */
export class Migration20261129145708_invoice_key_index extends Migration {
  override name = 'Migration20261129145708_invoice_key_index';

  override up(): void {
    this.addSql(`drop index "activity_organization_invoice_idx";`);
    this.addSql(`create index "activity_invoice_idx" on "activity" ("invoice_id", "organization_id");`);
  }

  override down(): void {
    this.addSql(`drop index "activity_invoice_idx";`);
    this.addSql(`create index "activity_organization_invoice_idx" on "activity" ("organization_id", "invoice_id");`);
  }
}
