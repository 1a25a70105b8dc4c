import type { EntityManager } from '@mikro-orm/postgresql';

/** An account a self-service e-mail opens, with what the page needs of it. */
export interface SelfServiceAccountRow {
  id: string;
  code: string;
  company_name: string | null;
  first_name: string | null;
  middle_name: string | null;
  last_name: string | null;
  language: string;
  /** Its payment gateway accounts' gateways, in their order. */
  gateways: string[];
}

/**
 * The organization's accounts with a recipient of `email` (normalized: compared with each
 * recipient's address trimmed and in lower case), oldest first. Read afresh at every use, so a
 * recipient removed or changed takes the access with it at once.
 */
export async function accountsForEmail(
  em: EntityManager,
  organizationId: string,
  email: string,
): Promise<SelfServiceAccountRow[]> {
  return em.execute<SelfServiceAccountRow[]>(
    `select a.id, a.code, a.company_name, a.first_name, a.middle_name, a.last_name, a.language,
            coalesce((select json_agg(g.payment_gateway order by g.position) from payment_gateway_account g
                       where g.organization_id = a.organization_id and g.account_id = a.id), '[]') as gateways
       from account a
      where a.organization_id = ?
        and exists (select 1 from recipient r
                     where r.organization_id = a.organization_id and r.account_id = a.id
                       and lower(btrim(r.email)) = ?)
      order by a.created_at, a.id`,
    [organizationId, email],
  );
}
