import type { FieldViolation } from '@billing/errors';

export type WriteMode = 'create' | 'replace' | 'patch';

/** A client's write: the values it sent (null where it sent null) and the names it sent. */
export interface Write<Fields> {
  values: Partial<{ [K in keyof Fields]: Fields[K] | null }>;
  present: ReadonlySet<string>;
}

export interface WritableShape<Fields> {
  /** Values of every optional field on create. */
  defaults: { [K in keyof Fields]?: Fields[K] };
  /** Fields that create and PUT must carry. */
  required: readonly (keyof Fields & string)[];
}

/**
 * Applies a REST write with DRF's semantics: create and PUT need every required field, PATCH
 * changes only what was sent, and null is refused where the field is not nullable (its default is
 * not null, or it is required). Unknown names are ignored, as DRF ignores unknown fields.
 */
export function applyWrite<Fields extends object>(
  shape: WritableShape<Fields>,
  current: Fields | null,
  write: Write<Fields>,
  mode: WriteMode,
): { fields: Fields; violations: [] } | { fields: null; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const required = new Set<string>(shape.required);
  if (mode !== 'patch') {
    for (const field of shape.required) {
      if (!write.present.has(field)) violations.push({ field, description: 'This field is required.' });
    }
  }
  const next: Record<string, unknown> = { ...(current ?? shape.defaults) };
  const defaults = shape.defaults as Record<string, unknown>;
  for (const field of write.present) {
    // Own members only: a sent `constructor` or `__proto__` is an unknown name, not Object.prototype's.
    if (!Object.hasOwn(defaults, field) && !required.has(field)) continue;
    const value = (write.values as Record<string, unknown>)[field] ?? null;
    if (value === null && (required.has(field) || defaults[field] !== null)) {
      violations.push({ field, description: 'This field may not be null.' });
      continue;
    }
    next[field] = value;
  }
  if (violations.length > 0) return { fields: null, violations };
  return { fields: next as Fields, violations: [] };
}
