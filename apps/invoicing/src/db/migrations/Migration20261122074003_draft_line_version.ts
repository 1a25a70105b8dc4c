import { Migration } from '@mikro-orm/migrations';

export class Migration20261122074003_draft_line_version extends Migration {
  override name = 'Migration20261122074003_draft_line_version';

  override up(): void {
    this.addSql(`alter table "draft_invoice_line" add "version" int not null default 1;`);
  }

  override down(): void {
    this.addSql(`alter table "draft_invoice_line" drop column "version";`);
  }
}
