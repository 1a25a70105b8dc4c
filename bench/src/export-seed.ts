import type pg from 'pg';

/**
 * N issued invoices of one account, numbered 1..N, written into the invoicing service's schema as
 * the service stores them (100.00 + 25 % VAT, DKK), in one statement.
 */
export async function seedInvoices(
  client: pg.ClientBase,
  invoicing: { schema: string; organizationId: string; accountId: string; accountCode: string },
  count: number,
): Promise<void> {
  const party = JSON.stringify({
    name: 'Bench ApS',
    address: '',
    zipcode: '',
    city: '',
    country: 'DK',
    vat_number: '',
    email: '',
  });
  await client.query(
    `insert into "${invoicing.schema}".invoice (id, organization_id, account_id, account_code, invoice_number,
       external_invoice_number, date, due_date, currency, status, collection_method, payment_terms, subtotal, vat, total,
       balance, is_credit_note, reverse_charge, vat_note, vat_breakdown, seller, buyer, language, po_number, imported,
       import_source, issued_at, version, created_at, updated_at)
     select gen_random_uuid(), $1, $2, $3, n, '', '2026-01-15', '2026-01-29', 'DKK', 'open', 'invoice', 14,
       100, 25, 125, 125, false, false, '', '[{"rate":"25.00","base":"100.00","vat":"25.00"}]', $4, $4, 'da', '',
       false, '', now(), 1, now(), now()
     from generate_series(1, $5::int) as n`,
    [invoicing.organizationId, invoicing.accountId, invoicing.accountCode, party, count],
  );
}

/** The same rows the export has, as the invoice list's stored columns, newest number first. */
export function baselineCopySql(schema: string, organizationId: string): string {
  if (!/^[0-9a-f-]{36}$/.test(organizationId)) throw new Error(`not a uuid: ${organizationId}`);
  return `copy (
    select id, invoice_number, external_invoice_number, account_id, account_code, date, due_date, currency, status,
      kickback_status, collection_method, imported, import_source, created_at, updated_at, is_credit_note,
      credit_note_for, payment_terms, vat_breakdown, reverse_charge, vat_note, total, subtotal, vat, balance
    from "${schema}".invoice where organization_id = '${organizationId}' and status <> 'pending'
    order by invoice_number desc, id
  ) to stdout with (format csv, header)`;
}
