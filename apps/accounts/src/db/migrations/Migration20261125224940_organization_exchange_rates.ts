import { Migration } from '@mikro-orm/migrations';

export class Migration20261125224940_organization_exchange_rates extends Migration {
  override name = 'Migration20261125224940_organization_exchange_rates';

  override up(): void {
    this.addSql(`alter table "organization" add "exchange_rates" jsonb not null default '[]';`);
  }

  override down(): void {
    this.addSql(`alter table "organization" drop column "exchange_rates";`);
  }
}
