import { Migration } from '@mikro-orm/migrations';

export class Migration20261122053845_subscription_due_claim_order extends Migration {
  override name = 'Migration20261122053845_subscription_due_claim_order';

  override up(): void {
    this.addSql(`drop index "subscription_due_idx";`);
    this.addSql(`create index "subscription_due_idx" on "subscription" ("on_test_clock", "due_at", "id");`);
  }

  override down(): void {
    this.addSql(`drop index "subscription_due_idx";`);
    this.addSql(`create index "subscription_due_idx" on "subscription" ("on_test_clock", "due_at");`);
  }
}
