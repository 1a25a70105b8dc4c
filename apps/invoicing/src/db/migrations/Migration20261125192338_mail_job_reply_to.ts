import { Migration } from '@mikro-orm/migrations';

export class Migration20261125192338_mail_job_reply_to extends Migration {
  override name = 'Migration20261125192338_mail_job_reply_to';

  override up(): void {
    this.addSql(`alter table "mail_job" add "reply_to" varchar(254) not null default '';`);
  }

  override down(): void {
    this.addSql(`alter table "mail_job" drop column "reply_to";`);
  }
}
