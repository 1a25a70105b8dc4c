import { Migration } from '@mikro-orm/migrations';

/**
 * An outbox position is drawn only once the writing transaction has its id, so every transaction
 * holding a position the relay has seen handed out has an id below any assigned later: the relay
 * can tell from a snapshot's xmin that all of them ended (its claim floor, libs/events OutboxFloor).
 */
export class Migration20261126140000_outbox_position_after_xid extends Migration {
  override name = 'Migration20261126140000_outbox_position_after_xid';

  override up(): void {
    this.addSql(
      `alter table "outbox" alter column "position" set default (case when pg_current_xact_id() is not null then nextval('outbox_position_seq') end);`,
    );
  }

  override down(): void {
    this.addSql(`alter table "outbox" alter column "position" set default nextval('outbox_position_seq');`);
  }
}
