import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import { quoteIdentifier } from './database.js';

export interface BaselineServerOptions {
  databaseUrl: string;
  /** Schema holding account, recipient and payment_gateway_account (the platform's: `accounts`). */
  schema: string;
  /** Schemas of the other services the account's sets come from (the platform's: their names). */
  setSchemas: SetSchemas;
  /** The organization whose accounts are served: the baseline has no auth to derive it from. */
  organizationId: string;
  /** Same as the accounts service's pool (libs/db openPool default), so both wait on the same. */
  poolSize: number;
}

export interface BaselineServer {
  url: string;
  /** The account sets it reads from other services' tables (those that exist). */
  setsRead: string[];
  stop(): Promise<void>;
}

/**
 * The statement the accounts service runs for GET one account (apps/accounts/src/db/
 * account-by-code-query.ts), copied verbatim: the account, its recipients and payment gateway
 * accounts as JSON arrays in their order, and the reseller's code, in one round trip. Unqualified
 * names resolve through the pool's search_path, as on the service's pool.
 */
const ACCOUNT_BY_CODE = `
select a.*,
       coalesce(reseller.code, '') as reseller_code,
       coalesce((select json_agg(r order by r.created_at, r.id) from recipient r
                  where r.organization_id = a.organization_id and r.account_id = a.id), '[]') as recipient_rows,
       coalesce((select json_agg(g order by g.position) from payment_gateway_account g
                  where g.organization_id = a.organization_id and g.account_id = a.id), '[]') as gateway_rows
  from account a
  left join account reseller on reseller.organization_id = a.organization_id and reseller.id = a.reseller
 where a.organization_id = $1 and a.code = $2`;

export interface SetSchemas {
  /** Holds `subscription` (the platform's: `subscriptions`). */
  subscriptions: string;
  /** Holds `draft_invoice_line` (the platform's: `invoicing`). */
  invoicing: string;
}

/**
 * The account's sets kept by other services, read once the account's id is known, both at once,
 * as the gateway asks the subscriptions service (ListSubscriptions by account) and the invoicing
 * service (ListDraftLines by account, lines not invoiced yet) for `subscription_set` and
 * `draftinvoiceline_set`. Each service reads these rows from its own schema.
 */
const setStatements = (schemas: SetSchemas) => [
  {
    set: 'subscription_set',
    table: `${quoteIdentifier(schemas.subscriptions)}.subscription`,
    name: 'account-subscriptions',
    text: `select s.id from ${quoteIdentifier(schemas.subscriptions)}.subscription s
            where s.organization_id = $1 and s.account_id = $2
            order by s.created_at, s.id`,
  },
  {
    set: 'draftinvoiceline_set',
    table: `${quoteIdentifier(schemas.invoicing)}.draft_invoice_line`,
    name: 'account-draft-lines',
    text: `select d.id from ${quoteIdentifier(schemas.invoicing)}.draft_invoice_line d
            where d.organization_id = $1 and d.account_id = $2 and d.invoiced_at is null
            order by d.created_at, d.id`,
  },
];

/**
 * The floor the platform is compared against: what a single express process with a pg pool needs
 * to answer GET /api/v1/accounts/{code}/ with the same data. It runs the accounts service's own
 * statement, named and prepared like the service's (pg prepares it once per pool connection), on a
 * pool of the same size and search_path (libs/db openPool), and returns the same JSON body, so the
 * difference the benchmark shows is the platform's own layers (auth, rate limit, validation, gRPC
 * hop, mapping), not less work done by the baseline.
 */
export async function startBaselineServer(options: BaselineServerOptions): Promise<BaselineServer> {
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: options.poolSize,
    options: `-c search_path=${quoteIdentifier(options.schema)}`,
  });

  // A set whose table does not exist (its service keeps none yet) cannot be read by the platform
  // either; the baseline reads the others.
  const sets: ReturnType<typeof setStatements> = [];
  for (const statement of setStatements(options.setSchemas)) {
    const { rows } = await pool.query<{ found: string | null }>('select to_regclass($1) as found', [statement.table]);
    if (rows[0]?.found) sets.push(statement);
  }
  const app = express();
  app.get('/api/v1/accounts/:code/', async (req, res) => {
    const { rows } = await pool.query<AccountByCodeRow>({
      name: 'account-by-code',
      text: ACCOUNT_BY_CODE,
      values: [options.organizationId, req.params.code],
    });
    const row = rows[0];
    if (!row) {
      res.status(404).json({ detail: 'Not found.' });
      return;
    }
    const setRows = await Promise.all(
      sets.map(({ name, text }) => pool.query({ name, text, values: [options.organizationId, row.id] })),
    );
    // The benchmark's accounts have no subscriptions and no draft lines; presenting those (plans,
    // terms, amounts, embeds) is not what this floor measures, so a row means foreign data.
    if (setRows.some((result) => result.rows.length > 0)) {
      res.status(500).json({ detail: 'The baseline serves accounts without subscriptions or draft lines only.' });
      return;
    }
    res.json(accountView(row));
  });

  const server = await new Promise<import('node:http').Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setsRead: sets.map((statement) => statement.set),
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

type AccountRow = Record<string, unknown> & {
  id: string;
  partner: string | null;
  custom_fields: Record<string, unknown> | null;
  register_status: string | null;
  code: string;
  company_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  legal_country: string;
  legal_vat_number: string;
  reseller: string | null;
  created_at: Date;
  updated_at: Date;
};

/** Recipient rows as json_agg renders them (timestamps become strings; created_at is dropped anyway). */
type RecipientRow = Record<string, unknown> & { id: string; account_id: string };
type GatewayAccountRow = {
  id: string;
  payment_gateway: string;
  payment_gateway_account_id: string;
};

type AccountByCodeRow = AccountRow & {
  reseller_code: string;
  recipient_rows: RecipientRow[];
  gateway_rows: GatewayAccountRow[];
};

// The EU list matters only for eu_vat_status; a short inline set keeps the baseline self-contained.
const EU = new Set('AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '));

// The representation tag the platform adds to every object (`model`, `schema`); the same bytes here.
const REPRESENTATION_DATE = '2026-11-22';
const tagged = <T extends object>(model: string, body: T) => ({
  ...body,
  model,
  schema: `${REPRESENTATION_DATE}-${model}`,
});

/**
 * The same keys (and set names) as the gateway's account representation
 * (apps/gateway/src/routes/accounts/account-representation.ts), derived with the same trivial rules.
 */
function accountView(row: AccountByCodeRow) {
  const { reseller_code: resellerCode, recipient_rows: recipients, gateway_rows: gatewayAccounts, ...account } = row;
  const {
    id,
    organization_id: _organization,
    created_at,
    updated_at,
    partner,
    custom_fields,
    register_status,
    ...fields
  } = account;
  const person = [account.first_name, account.middle_name, account.last_name].filter((part) => part).join(' ');
  return tagged('account', {
    uuid: id,
    display_name: account.company_name || person || account.code,
    ...fields,
    partner: partner === null ? null : Number(partner),
    reseller_code: resellerCode,
    custom_fields: custom_fields ?? {},
    payment_gateway_account_set: gatewayAccounts.map((row) =>
      tagged('payment_gateway_account', {
        uuid: row.id,
        payment_gateway: row.payment_gateway,
        payment_gateway_account_id: row.payment_gateway_account_id,
      }),
    ),
    // Cards are not served yet (empty on the platform too); subscriptions and draft lines were
    // read above and there are none.
    paymentcard_set: [],
    subscription_set: [],
    recipient_set: recipients.map(({ id: uuid, organization_id: _org, account_id, created_at: _created, ...rest }) =>
      tagged('recipient', {
        uuid,
        account: account_id,
        account_code: account.code,
        ...rest,
        has_access_to_self_service: false,
      }),
    ),
    draftinvoiceline_set: [],
    created_date: created_at,
    last_modified_date: updated_at,
    eu_vat_status: EU.has(account.legal_country) && account.legal_vat_number ? 'unverified' : 'not_applicable',
    register_status: register_status ?? null,
  });
}
