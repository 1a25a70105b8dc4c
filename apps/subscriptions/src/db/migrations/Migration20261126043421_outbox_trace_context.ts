import { Migration } from '@mikro-orm/migrations';

export class Migration20261126043421_outbox_trace_context extends Migration {
  override name = 'Migration20261126043421_outbox_trace_context';

  override up(): void {
    this.addSql(`alter table "outbox" add "traceparent" text null, add "tracestate" text null;`);
  }

  override down(): void {
    this.addSql(`alter table "outbox" drop column "traceparent", drop column "tracestate";`);
  }
}
