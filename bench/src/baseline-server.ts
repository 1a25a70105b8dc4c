import type { AddressInfo } from 'node:net';
import express from 'express';
import pg from 'pg';
import { quoteIdentifier } from './database.js';

export interface BaselineServerOptions {
  databaseUrl: string;
  /** Schema holding account, recipient and payment_gateway_account (the platform's: `accounts`). */
  schema: string;
  /** The organization whose accounts are served: the baseline has no auth to derive it from. */
  organizationId: string;
  /** Same as the accounts service's pool (libs/db openPool default), so both wait on the same. */
  poolSize: number;
}

export interface BaselineServer {
  url: string;
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
    res.json(accountView(row));
  });

  const server = await new Promise<import('node:http').Server>((resolve, reject) => {
    const listening = app.listen(0, '127.0.0.1', (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
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
    // Sets owned by later capabilities are empty on the platform too.
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
