import { textLength, type WritableShape } from '@billing/domain-kit';
import type { FieldViolation } from '@billing/errors';

/** api-spec: a churn reason has a name; 100 characters, as the spec's custom_churn_reason. */
export const CHURN_REASON_NAME_MAX = 100;

export interface ChurnReasonFields {
  name: string;
  is_active: boolean;
}

/** The REST representation (and the gRPC message): `deleted` is only ever true for GetChurnReasons. */
export interface ChurnReasonView {
  uuid: string;
  name: string;
  is_active: boolean;
  deleted: boolean;
}

/** A new reason is active unless the client says otherwise. */
export const CHURN_REASON_SHAPE: WritableShape<ChurnReasonFields> = {
  required: ['name'],
  defaults: { is_active: true },
};

/**
 * What the gateway's schema already checks, checked again where the rule lives: the service is
 * also called by other services, not only through REST. The name is trimmed, as DRF's CharField.
 */
export function normaliseChurnReason(fields: ChurnReasonFields): {
  fields: ChurnReasonFields;
  violations: FieldViolation[];
} {
  const name = fields.name.trim();
  const violations: FieldViolation[] = [];
  if (name === '') violations.push({ field: 'name', description: 'This field may not be blank.' });
  else if (textLength(name) > CHURN_REASON_NAME_MAX) {
    violations.push({
      field: 'name',
      description: `Ensure this field has no more than ${CHURN_REASON_NAME_MAX} characters.`,
    });
  }
  return { fields: { ...fields, name }, violations };
}

/** Answers in the order asked, once per uuid asked, leaving out what was not found. */
export function inRequestOrder(uuids: readonly string[], found: readonly ChurnReasonView[]): ChurnReasonView[] {
  const byUuid = new Map(found.map((reason) => [reason.uuid, reason]));
  const seen = new Set<string>();
  const ordered: ChurnReasonView[] = [];
  for (const uuid of uuids) {
    const reason = byUuid.get(uuid.toLowerCase());
    if (reason && !seen.has(reason.uuid)) {
      seen.add(reason.uuid);
      ordered.push(reason);
    }
  }
  return ordered;
}
