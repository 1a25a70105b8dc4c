import { Migration } from '@mikro-orm/migrations';

export class Migration20261125190614_invoice_bank_account extends Migration {
  override name = 'Migration20261125190614_invoice_bank_account';

  override up(): void {
    this.addSql(`alter table "invoice" add "bank_account" jsonb null;`);
  }

  override down(): void {
    this.addSql(`alter table "invoice" drop column "bank_account";`);
  }
}
