import { Migration } from '@mikro-orm/migrations';

export class Migration20261126014313_reminder_schedule extends Migration {
  override name = 'Migration20261126014313_reminder_schedule';

  override up(): void {
    this.addSql(
      `alter table "organization" add "reminder_schedule_days" jsonb not null default '[3,10,20]', add "reminder_fee" varchar(32) not null default '';`,
    );
  }

  override down(): void {
    this.addSql(`alter table "organization" drop column "reminder_schedule_days", drop column "reminder_fee";`);
  }
}
