import { Migration } from '@mikro-orm/migrations';

/**
 * Half of each outbox page is kept free when rows are inserted, so the relay's claim (which sets
 * `published_at`) writes the new row version on the same page: Postgres then logs only the bytes
 * that changed instead of the whole row with its payload. Measured on a billing run, the claims
 * had written as much WAL as the inserts (libs/events claimOutboxRows).
 */
export class Migration20261129070000_outbox_fillfactor extends Migration {
  override name = 'Migration20261129070000_outbox_fillfactor';

  override up(): void {
    this.addSql('alter table "outbox" set (fillfactor = 50);');
  }

  override down(): void {
    this.addSql('alter table "outbox" reset (fillfactor);');
  }
}
