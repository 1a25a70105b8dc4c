import type { AddressInfo } from 'node:net';
import { type accountsV1, invoicingV1, paymentsV1, subscriptionsV1 } from '@billing/proto';
import {
  presentDraftLine,
  presentPaymentCard,
  presentSubscription,
  type SubscriptionEmbeds,
  tagged,
} from '@billing/rest-representation';
import express from 'express';
import pg from 'pg';
import { quoteIdentifier } from './database.js';

export interface BaselineServerOptions {
  databaseUrl: string;
  /**
   * Schema holding the accounts service's tables: account, recipient, payment_gateway_account,
   * organization, churn_reason and the read model (account_subscription, account_draft_line,
   * account_payment_card). The platform's: `accounts`.
   */
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
 * account-by-code-query.ts), copied verbatim: the account, its organization's self_service flag
 * and default payment terms (what the subscriptions' effective_payment_terms fall back on), its
 * recipients and payment gateway accounts as JSON arrays in their order, the reseller's code and
 * the read model's snapshots of its subscriptions, draft lines and payment cards (the encoded
 * messages their services' events carry, oldest first), in one round trip. Unqualified names
 * resolve through the pool's search_path, as on the service's pool.
 */
const ACCOUNT_BY_CODE = `
select a.*,
       coalesce(reseller.code, '') as reseller_code,
       coalesce(o.features @> '["self_service"]'::jsonb, false) as self_service,
       o.default_payment_terms as organization_payment_terms,
       coalesce((select json_agg(r order by r.created_at, r.id) from recipient r
                  where r.organization_id = a.organization_id and r.account_id = a.id), '[]') as recipient_rows,
       coalesce((select json_agg(g order by g.position) from payment_gateway_account g
                  where g.organization_id = a.organization_id and g.account_id = a.id), '[]') as gateway_rows,
       coalesce((select array_agg(s.snapshot order by s.created_date, s.id) from account_subscription s
                  where s.organization_id = a.organization_id and s.account_id = a.id
                    and s.snapshot is not null), '{}') as subscription_snapshots,
       coalesce((select array_agg(d.snapshot order by d.created_date, d.id) from account_draft_line d
                  where d.organization_id = a.organization_id and d.account_id = a.id
                    and not d.removed), '{}') as draft_line_snapshots,
       coalesce((select array_agg(c.snapshot order by c.created_date, c.id) from account_payment_card c
                  where c.organization_id = a.organization_id and c.account_id = a.id), '{}') as payment_card_snapshots
  from account a
  left join account reseller on reseller.organization_id = a.organization_id and reseller.id = a.reseller
  left join organization o on o.id = a.organization_id
 where a.organization_id = $1 and a.code = $2`;

/** The churn reasons the subscriptions name (deleted ones too), read only when some names one. */
const CHURN_REASONS = `
select id, name, is_active from churn_reason where organization_id = $1 and id = any($2::uuid[])`;

/**
 * The floor the platform is compared against: what a single express process with a pg pool needs
 * to answer GET /api/v1/accounts/{code}/ with the same data. It runs the accounts service's own
 * statement, named and prepared like the service's (pg prepares it once per pool connection), on a
 * pool of the same size and search_path (libs/db openPool), decodes the stored snapshots with the
 * same generated decoders and returns the same JSON body (plans, terms, decimals, dates as the
 * platform presents them), so the difference the benchmark shows is the platform's own layers
 * (auth, rate limit, validation, gRPC hop, mapping), not less work done by the baseline.
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
    const subscriptions = row.subscription_snapshots.map((snapshot) => subscriptionsV1.Subscription.decode(snapshot));
    const churnReasonIds = [
      ...new Set(subscriptions.map((subscription) => subscription.churn_reason).filter((id) => id)),
    ];
    const churnReasons = new Map<string, ChurnReasonRow>();
    if (churnReasonIds.length > 0) {
      const found = await pool.query<ChurnReasonRow>({
        name: 'churn-reasons',
        text: CHURN_REASONS,
        values: [options.organizationId, churnReasonIds],
      });
      for (const reason of found.rows) churnReasons.set(reason.id, reason);
    }
    res.json(accountView(row, subscriptions, churnReasons));
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
  type: string | null;
  company_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  legal_country: string;
  legal_vat_number: string;
  default_payment_terms: number | null;
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
type ChurnReasonRow = { id: string; name: string; is_active: boolean };

type AccountByCodeRow = AccountRow & {
  reseller_code: string;
  self_service: boolean;
  organization_payment_terms: number | null;
  recipient_rows: RecipientRow[];
  gateway_rows: GatewayAccountRow[];
  /** bytea[]: node-postgres hands each element over as a Buffer. */
  subscription_snapshots: Buffer[];
  draft_line_snapshots: Buffer[];
  payment_card_snapshots: Buffer[];
};

// The EU list matters only for eu_vat_status; a short inline set keeps the baseline self-contained.
const EU = new Set('AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK'.split(' '));

/**
 * The account as the gateway represents it, from the row of the accounts statement: the account's
 * own fields here, its sets through the gateway's own presenters (libs/rest-representation), so the
 * baseline does the same presenting work and cannot drift from the contract.
 */
function accountView(
  row: AccountByCodeRow,
  subscriptions: subscriptionsV1.Subscription[],
  churnReasons: ReadonlyMap<string, ChurnReasonRow>,
) {
  const {
    reseller_code: resellerCode,
    self_service: selfService,
    organization_payment_terms: organizationPaymentTerms,
    recipient_rows: recipients,
    gateway_rows: gatewayAccounts,
    subscription_snapshots: _subscriptions,
    draft_line_snapshots: draftLines,
    payment_card_snapshots: cards,
    ...account
  } = row;
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
  const displayName = account.company_name || person || account.code;
  // What the account's subscriptions embed of it and of the organization, as the gateway loads it.
  const embeds: SubscriptionEmbeds = {
    accounts: new Map<string, accountsV1.AccountSummary>([
      [
        id,
        {
          uuid: id,
          display_name: displayName,
          company_name: account.company_name ?? undefined,
          code: account.code,
          type: account.type ?? (account.company_name ? 'company' : 'person'),
          payment_terms: account.default_payment_terms ?? undefined,
        },
      ],
    ]),
    churnReasons: new Map(
      [...churnReasons.values()].map((reason) => [
        reason.id,
        { uuid: reason.id, name: reason.name, is_active: reason.is_active, deleted: false },
      ]),
    ),
    organizationPaymentTerms,
  };
  return tagged('account', {
    uuid: id,
    display_name: displayName,
    ...fields,
    partner: partner === null ? null : Number(partner),
    reseller_code: resellerCode,
    custom_fields: custom_fields ?? {},
    payment_gateway_account_set: gatewayAccounts.map((gateway) =>
      tagged('payment_gateway_account', {
        uuid: gateway.id,
        payment_gateway: gateway.payment_gateway,
        payment_gateway_account_id: gateway.payment_gateway_account_id,
      }),
    ),
    paymentcard_set: cards.map((snapshot) => presentPaymentCard(paymentsV1.PaymentCard.decode(snapshot))),
    subscription_set: subscriptions.map((subscription) => presentSubscription(subscription, embeds)),
    recipient_set: recipients.map(({ id: uuid, organization_id: _org, account_id, created_at: _created, ...rest }) =>
      tagged('recipient', {
        uuid,
        account: account_id,
        account_code: account.code,
        ...rest,
        has_access_to_self_service: selfService,
      }),
    ),
    draftinvoiceline_set: draftLines.map((snapshot) =>
      presentDraftLine(invoicingV1.DraftLine.decode(snapshot), account.code),
    ),
    created_date: created_at,
    last_modified_date: updated_at,
    eu_vat_status: EU.has(account.legal_country) && account.legal_vat_number ? 'unverified' : 'not_applicable',
    register_status: register_status ?? null,
  });
}
