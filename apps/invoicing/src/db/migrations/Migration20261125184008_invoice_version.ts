import { Migration } from '@mikro-orm/migrations';

export class Migration20261125184008_invoice_version extends Migration {
  override name = 'Migration20261125184008_invoice_version';

  override up(): void {
    this.addSql(`alter table "invoice" add "version" int not null default 0;`);
    // Invoices issued before versions were kept count as once published: their next change is 2.
    this.addSql(`update "invoice" set "version" = 1 where "status" <> 'pending';`);
  }

  override down(): void {
    this.addSql(`alter table "invoice" drop column "version";`);
  }
}
