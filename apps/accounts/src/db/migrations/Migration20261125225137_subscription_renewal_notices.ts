import { Migration } from '@mikro-orm/migrations';

export class Migration20261125225137_subscription_renewal_notices extends Migration {
  override name = 'Migration20261125225137_subscription_renewal_notices';

  override up(): void {
    this.addSql(
      `alter table "account_subscription" add "next_renewal_at" timestamptz null, add "renewal_noticed_for" timestamptz null;`,
    );
    this.addSql(
      `create index "account_subscription_status_renewal_idx" on "account_subscription" ("status", "next_renewal_at");`,
    );
  }

  override down(): void {
    this.addSql(`drop index "account_subscription_status_renewal_idx";`);
    this.addSql(`alter table "account_subscription" drop column "next_renewal_at", drop column "renewal_noticed_for";`);
  }
}
