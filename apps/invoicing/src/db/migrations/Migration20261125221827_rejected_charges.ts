import { Migration } from '@mikro-orm/migrations';

export class Migration20261125221827_rejected_charges extends Migration {
  override name = 'Migration20261125221827_rejected_charges';

  override up(): void {
    this.addSql(
      `create table "rejected_charge" ("charge_id" uuid not null, "organization_id" uuid not null, "event_id" text not null, "reason" text not null, "rejected_at" timestamptz not null, primary key ("charge_id"));`,
    );
  }

  override down(): void {
    this.addSql(`drop table if exists "rejected_charge" cascade;`);
  }
}
