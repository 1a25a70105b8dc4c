import { createHash } from 'node:crypto';

/**
 * Deterministic uuids for a plan test's fill: the n-th `kind` of an organization is
 * md5(organization, kind, n) as a uuid, computed the same in JS (`uuidOf`, for the keys a test
 * names) and in SQL (`uuidOfRow`, for rows a `generate_series` fills, `n` an SQL expression).
 */
export function keyedUuids<Kind extends string>(organizationId: string) {
  return {
    uuidOf: (kind: Kind, n: number): string =>
      createHash('md5')
        .update(`${organizationId}${kind}${n}`)
        .digest('hex')
        .replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
    uuidOfRow: (kind: Kind, n: string): string => `md5('${organizationId}' || '${kind}' || (${n}))::uuid`,
  };
}
