import type { SnapshotQuery } from '@billing/exports';
import { REPRESENTATION_DATE } from '@billing/rest-representation';
import type { AccountSummary } from '../domain/directory.js';

/**
 * The invoice list's export as one set-based query whose columns are the CSV's cells exactly as
 * the gateway's CSV of the list representation has them (InvoiceListItemSchema, through
 * presentInvoiceListItem and csvCells), for `COPY ... TO STDOUT WITH (FORMAT csv)`: PostgreSQL
 * writes the rows, nothing is presented row by row in JavaScript (README "Performance").
 *
 * Cells as csvCells writes them: null and '' both as an empty cell (COPY quotes '', so text is
 * nullif'd), booleans as true/false, instants as toISOString (milliseconds, truncated as a
 * JavaScript Date holds them), totals as the JSON numbers of the list (the currency's decimals,
 * truncated as presentAmount does, trailing zeros dropped as Number prints them), vat_breakdown
 * as the JSON of its tagged parts, the embedded account from `accounts` (null when not known).
 */
export function invoiceCsvQuery(input: {
  /** The invoices to export: `select i0.* ... where ...` (invoiceListSelection). */
  selection: SnapshotQuery;
  ordering: { column: string; direction: 'asc' | 'desc' };
  accounts: readonly AccountSummary[];
  kickbackEnabled: boolean;
}): SnapshotQuery {
  const { column, direction } = input.ordering;
  if (!/^[a-z_]+$/.test(column)) throw new Error(`not a column: ${column}`);
  const accounts = input.accounts.map(({ uuid, code, display_name, company_name, type }) => ({
    uuid,
    code,
    display_name,
    company_name,
    type,
  }));
  const cells = [
    'i.id',
    'i.invoice_number',
    text('i.external_invoice_number'),
    'a.uuid',
    text('a.display_name'),
    text('a.company_name'),
    text('a.code'),
    text('a.type'),
    `case when a.uuid is null then null else ${literal('account')} end`,
    `case when a.uuid is null then null else ${literal(schemaOf('account'))} end`,
    'i.account_id',
    text('coalesce(a.code, i.account_code)'),
    `i.bank_account->>'id'`,
    text('i.date'),
    text('i.due_date'),
    text('i.currency'),
    text('i.status'),
    input.kickbackEnabled ? text('i.kickback_status') : 'null',
    text('i.collection_method'),
    bool('i.imported'),
    text('i.import_source'),
    instant('i.created_at'),
    instant('i.updated_at'),
    bool('i.is_credit_note'),
    'i.credit_note_for',
    'i.payment_terms',
    vatBreakdown('i.vat_breakdown'),
    bool('i.reverse_charge'),
    text('i.vat_note'),
    'i.einvoice_status',
    literal('invoice'),
    literal(schemaOf('invoice')),
    listAmount('i.total'),
    listAmount('i.subtotal'),
    listAmount('i.vat'),
    listAmount('i.balance'),
  ];
  return {
    sql: `select ${cells.join(', ')}
      from (${input.selection.sql}) as i
      left join json_to_recordset(?::json) as a(uuid uuid, code text, display_name text, company_name text, type text)
        on a.uuid = i.account_id
      order by i.${column} ${direction === 'desc' ? 'desc' : 'asc'}, i.id asc`,
    params: [...input.selection.params, JSON.stringify(accounts)],
  };
}

const schemaOf = (model: string) => `${REPRESENTATION_DATE}-${model}`;
const literal = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** '' is an empty cell, as null is (COPY would write '' as a quoted ""). */
const text = (expression: string) => `nullif(${expression}, '')`;
const bool = (expression: string) => `case when ${expression} then 'true' else 'false' end`;
const instant = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A total as the list's JSON number: ISK has no decimals, other currencies two (presentAmount truncates). */
const listAmount = (column: string) =>
  `trim_scale(trunc(${column}, case when i.currency = 'ISK' then 0 else 2 end))::text`;

/**
 * The parts' JSON as JSON.stringify writes presentVatBreakdown's objects: rate, base, vat, model,
 * schema. One or two parts (nearly every invoice) are read by index; more through a set-returning
 * subquery, which costs about as much as the rest of the row (measured with 100,000 invoices).
 */
function vatBreakdown(column: string): string {
  const tag = `,"model":"vat_breakdown","schema":"${schemaOf('vat_breakdown')}"}`;
  const object = (part: string) => {
    const field = (name: string) => `to_json(coalesce(${part}->>${literal(name)}, ''))::text`;
    return `'{"rate":' || ${field('rate')} || ',"base":' || ${field('base')} || ',"vat":' || ${field('vat')} || ${literal(tag)}`;
  };
  const any = `(select '[' || coalesce(string_agg(${object('part')}, ',' order by position), '') || ']'
    from jsonb_array_elements(${column}::jsonb) with ordinality as parts(part, position))`;
  return `case jsonb_array_length(${column}::jsonb)
    when 0 then '[]'
    when 1 then '[' || ${object(`${column}->0`)} || ']'
    when 2 then '[' || ${object(`${column}->0`)} || ',' || ${object(`${column}->1`)} || ']'
    else ${any} end`;
}
