import { Migration } from '@mikro-orm/migrations';

export class Migration20261122064839_organization_seller_details extends Migration {
  override name = 'Migration20261122064839_organization_seller_details';

  override up(): void {
    this.addSql(
      `alter table "organization" add "address" varchar(256) not null default '', add "zipcode" varchar(32) not null default '', add "city" varchar(128) not null default '', add "vat_number" varchar(32) not null default '';`,
    );
  }

  override down(): void {
    this.addSql(
      `alter table "organization" drop column "address", drop column "zipcode", drop column "city", drop column "vat_number";`,
    );
  }
}
