/**
 * What a churn account activity shows as `churn_reason` (gaps.md §8): the name of the
 * subscription's churn reason, else its custom churn reason, else ''. A reason whose name is not
 * known yet (its event has not arrived) counts as none until it is.
 */
export function shownChurnReason(reasonName: string | null, customReason: string | null): string {
  if (reasonName) return reasonName;
  return customReason ?? '';
}
