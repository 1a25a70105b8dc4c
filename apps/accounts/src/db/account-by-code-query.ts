import type pg from 'pg';
import type { AccountView } from '../domain/account-view.js';
import { toAccountView } from './account-views.js';
import type { AccountRow } from './entities/account.entity.js';
import type { PaymentGatewayAccountRow } from './entities/payment-gateway-account.entity.js';
import type { RecipientRow } from './entities/recipient.entity.js';

/**
 * GET /accounts/{code}/ is the hottest read of the API, so it is one prepared statement on the raw
 * pool: the account, its organization's self_service flag and default payment terms, its
 * recipients and gateway accounts (as JSON arrays, in their order), its reseller's code and the
 * read model's snapshots of its subscriptions, of its draft lines not deleted or invoiced and of
 * its payment cards (bytea arrays, oldest first), in one round trip and without entity hydration.
 * Same rows, same order, same view as the ORM path (loadAccountViews). The organization's payment
 * terms are what the subscriptions' effective_payment_terms fall back on: read here, the reply's
 * embeds need no second round trip (subscriptionSetEmbeds).
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

interface AccountByCodeRow extends AccountRow {
  reseller_code: string;
  /** The organization's self_service feature is on (recipientsHaveSelfService, in SQL). */
  self_service: boolean;
  /** Null only when the organization row is missing (then no account of it can be read either). */
  organization_payment_terms: number | null;
  recipient_rows: RecipientRow[];
  gateway_rows: PaymentGatewayAccountRow[];
  /** bytea[]: node-postgres hands each element over as a Buffer. */
  subscription_snapshots: Buffer[];
  draft_line_snapshots: Buffer[];
  payment_card_snapshots: Buffer[];
}

/** An account read by code, with what its organization adds to the read. */
export interface AccountByCode {
  view: AccountView;
  /** The organization's default payment terms (the fallback of effective_payment_terms). */
  organizationPaymentTerms: number | null;
}

export async function findAccountViewByCode(
  pool: pg.Pool,
  organizationId: string,
  code: string,
): Promise<AccountByCode | null> {
  const result = await pool.query<AccountByCodeRow>({
    name: 'account-by-code',
    text: ACCOUNT_BY_CODE,
    values: [organizationId, code],
  });
  const row = result.rows[0];
  if (!row) return null;
  const view = toAccountView(
    row,
    row.recipient_rows,
    row.gateway_rows,
    row.reseller_code,
    {
      subscriptions: row.subscription_snapshots,
      draft_lines: row.draft_line_snapshots,
      payment_cards: row.payment_card_snapshots,
    },
    row.self_service,
  );
  return { view, organizationPaymentTerms: row.organization_payment_terms };
}
