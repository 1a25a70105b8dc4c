import { Migration } from '@mikro-orm/migrations';

export class Migration20261122074134_subscription_version extends Migration {
  override name = 'Migration20261122074134_subscription_version';

  override up(): void {
    this.addSql(`alter table "subscription" add "version" int not null default 1;`);
  }

  override down(): void {
    this.addSql(`alter table "subscription" drop column "version";`);
  }
}
