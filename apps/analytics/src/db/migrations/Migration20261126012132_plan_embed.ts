import { Migration } from '@mikro-orm/migrations';

export class Migration20261126012132_plan_embed extends Migration {
  override name = 'Migration20261126012132_plan_embed';

  override up(): void {
    this.addSql(
      `alter table "plan" add "code" varchar(256) null, add "collect_vat" boolean null, add "vat_type" varchar(16) null;`,
    );
  }

  override down(): void {
    this.addSql(`alter table "plan" drop column "code", drop column "collect_vat", drop column "vat_type";`);
  }
}
