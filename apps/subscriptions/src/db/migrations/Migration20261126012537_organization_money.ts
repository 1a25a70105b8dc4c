import { Migration } from '@mikro-orm/migrations';

export class Migration20261126012537_organization_money extends Migration {
  override name = 'Migration20261126012537_organization_money';

  override up(): void {
    this.addSql(
      `create table "organization_money" ("id" uuid not null, "base_currency" varchar(3) not null, "time_zone" varchar(64) not null, "exchange_rates" jsonb not null, primary key ("id"));`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "organization_money" cascade;`);
  }
}
