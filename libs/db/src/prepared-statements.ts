import pg from 'pg';

/**
 * Statement texts that run as named prepared statements, each under its own name: Postgres then
 * parses and plans one once per connection instead of on every call (pg sends an unnamed
 * statement otherwise, which is parsed, analysed and planned each time). For the outbox relay's
 * claim that was half a millisecond of planning per call, the largest planning item of a billing
 * run. The batch writes are prepared too (the outbox's, the inbox's, the audit's, the services'
 * batch inserts): planned for each call's values, a plan holds those values as constants and the
 * planner copies them with every copy of its tree, a millisecond per call for a batch of a few
 * hundred kilobytes; the generic plan Postgres keeps after five calls holds parameters. Not an
 * update or read that joins a table (its plan follows the table's size, which a connection's
 * generic plan would not). Only constant texts belong here (one per statement, however many
 * calls): the set lives as long as the process, and each connection keeps every statement it
 * prepared until it closes.
 */
const names = new Map<string, string>();

/**
 * The most texts marked in a process. The marked statements are constant texts, a few dozen per
 * service; past this a caller marks texts that vary (a list written into them, a schema per test),
 * and those run unprepared rather than pile up in every connection.
 */
export const MAX_PREPARED_TEXTS = 500;

/** Marks `text` (as sent, `$n` placeholders) to be sent as a named prepared statement (up to MAX_PREPARED_TEXTS). */
export function prepareStatement(text: string): void {
  if (!names.has(text) && names.size < MAX_PREPARED_TEXTS) names.set(text, `billing_${names.size + 1}`);
}

/**
 * The pg client of the services' pools (openOrm): a text marked by prepareStatement goes out as
 * the named statement `{ name, text, values }`; pg parses it on a connection the first time only
 * (it remembers per connection what it prepared, and forgets a statement whose Parse failed).
 * Anything else goes as pg sends it. Postgres chooses per prepared statement between a plan for
 * the values of each call and one generic plan reused (after five calls, when it costs no more), so
 * only statements whose plan does not depend on their values' sizes are marked: not lookups
 * joining an array of keys, whose row count the planner reads from the array's value.
 */
export class PreparingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has a dozen overloads; this forwards them all.
  override query(config: any, values?: any, callback?: any): any {
    if (typeof config === 'string' && (values === undefined || Array.isArray(values))) {
      const name = names.get(config);
      if (name !== undefined) return super.query({ name, text: config, values }, callback);
    }
    return super.query(config, values, callback);
  }
}
