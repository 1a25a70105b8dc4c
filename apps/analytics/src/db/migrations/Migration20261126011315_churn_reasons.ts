import { Migration } from '@mikro-orm/migrations';

export class Migration20261126011315_churn_reasons extends Migration {
  override name = 'Migration20261126011315_churn_reasons';

  override up(): void {
    this.addSql(
      `create table "churn_reason" ("id" uuid not null, "organization_id" uuid not null, "name" varchar(256) not null, primary key ("id"));`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "churn_reason" cascade;`);
  }
}
