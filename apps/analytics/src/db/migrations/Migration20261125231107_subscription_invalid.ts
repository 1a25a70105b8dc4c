import { Migration } from '@mikro-orm/migrations';

export class Migration20261125231107_subscription_invalid extends Migration {
  override name = 'Migration20261125231107_subscription_invalid';

  override up(): void {
    this.addSql(`alter table "subscription_mrr" add "invalid" boolean not null default false;`);
  }

  override down(): void {
    this.addSql(`alter table "subscription_mrr" drop column "invalid";`);
  }
}
