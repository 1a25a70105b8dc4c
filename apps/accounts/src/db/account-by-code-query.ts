import type pg from 'pg';
import type { AccountView } from '../domain/account-view.js';
import { toAccountView } from './account-views.js';
import type { AccountRow } from './entities/account.entity.js';
import type { PaymentGatewayAccountRow } from './entities/payment-gateway-account.entity.js';
import type { RecipientRow } from './entities/recipient.entity.js';

/**
 * GET /accounts/{code}/ is the hottest read of the API, so it is one prepared statement on the raw
 * pool: the account, its organization's self_service flag, its recipients and gateway accounts (as
 * JSON arrays, in their order), its
 * reseller's code and the read model's snapshots of its subscriptions and of its draft lines not
 * deleted or invoiced (bytea arrays, oldest first), in one round trip and without entity
 * hydration. Same rows, same order, same view as the ORM path (loadAccountViews).
 */
const ACCOUNT_BY_CODE = `
select a.*,
       coalesce(reseller.code, '') as reseller_code,
       coalesce((select o.features @> '["self_service"]'::jsonb from organization o
                  where o.id = a.organization_id), false) as self_service,
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
 where a.organization_id = $1 and a.code = $2`;

interface AccountByCodeRow extends AccountRow {
  reseller_code: string;
  /** The organization's self_service feature is on (recipientsHaveSelfService, in SQL). */
  self_service: boolean;
  recipient_rows: RecipientRow[];
  gateway_rows: PaymentGatewayAccountRow[];
  /** bytea[]: node-postgres hands each element over as a Buffer. */
  subscription_snapshots: Buffer[];
  draft_line_snapshots: Buffer[];
  payment_card_snapshots: Buffer[];
}

export async function findAccountViewByCode(
  pool: pg.Pool,
  organizationId: string,
  code: string,
): Promise<AccountView | null> {
  const result = await pool.query<AccountByCodeRow>({
    name: 'account-by-code',
    text: ACCOUNT_BY_CODE,
    values: [organizationId, code],
  });
  const row = result.rows[0];
  if (!row) return null;
  return toAccountView(
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
}
