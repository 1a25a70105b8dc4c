/**
 * An invoice's kickback_status (api-spec "States"; gaps.md §7): the commission state of an invoice
 * of a reseller arrangement, writable only while the organization's kickback feature is on.
 */

/** The organization feature that allows kickback_status (accounts' organization settings). */
export const KICKBACK_FEATURE = 'kickback';

export const KICKBACK_STATUSES = ['commission_pending', 'commission_paid'] as const;
export type KickbackStatus = (typeof KICKBACK_STATUSES)[number];

/** Why kickback_status cannot be set to `status` for an organization with `features`, or null when it can (null clears it). */
export function kickbackUpdateProblem(
  features: readonly string[],
  status: string | null,
): { kind: 'feature_off'; message: string } | { kind: 'invalid_status'; message: string } | null {
  if (!features.includes(KICKBACK_FEATURE)) {
    return { kind: 'feature_off', message: 'The kickback feature is not enabled for the organization.' };
  }
  if (status !== null && !(KICKBACK_STATUSES as readonly string[]).includes(status)) {
    return { kind: 'invalid_status', message: `"${status}" is not a valid choice.` };
  }
  return null;
}
