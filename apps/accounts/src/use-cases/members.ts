import type { PageSpec } from '@billing/domain-kit';
import type { RequestContext } from '@billing/observability';
import { ApiUserEntity } from '../db/entities/api-user.entity.js';
import { requireOrganization } from './change-transaction.js';
import type { AccountsDeps } from './deps.js';

export interface MemberView {
  id: string;
  name: string;
  permissions: string[];
  created_at: Date;
}

/**
 * The organization's members: its API users whose tokens are enabled (a disabled token's user can
 * no longer act), oldest first.
 */
export async function listMembers(
  deps: AccountsDeps,
  context: RequestContext,
  page: PageSpec,
): Promise<{ count: number; members: MemberView[] }> {
  const [users, count] = await deps.orm.em
    .fork()
    .findAndCount(
      ApiUserEntity,
      { organization_id: requireOrganization(context), disabled_at: null },
      { orderBy: { created_at: 'asc', id: 'asc' }, limit: page.pageSize, offset: (page.page - 1) * page.pageSize },
    );
  return {
    count,
    members: users.map((user) => ({
      id: user.id,
      name: user.name,
      permissions: user.permissions,
      created_at: user.created_at,
    })),
  };
}
