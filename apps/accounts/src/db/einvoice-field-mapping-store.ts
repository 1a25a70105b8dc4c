import type { EntityManager } from '@mikro-orm/postgresql';
import type { EinvoiceFieldMappingFields } from '../domain/einvoice-field-mapping.js';
import { EinvoiceFieldMappingEntity, type EinvoiceFieldMappingRow } from './entities/einvoice-field-mapping.entity.js';

export function mappingViewOf(row: EinvoiceFieldMappingRow): EinvoiceFieldMappingFields {
  return {
    uuid: row.id,
    format: row.format,
    target_field: row.target_field,
    source_type: row.source_type,
    source_builtin_field: row.source_builtin_field,
    source_custom_field: row.source_custom_field ?? null,
  };
}

/** One page of the organization's mappings, by format and target field. */
export function findMappingPage(
  em: EntityManager,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<[EinvoiceFieldMappingRow[], number]> {
  return em.findAndCount(
    EinvoiceFieldMappingEntity,
    { organization_id: organizationId },
    { orderBy: [{ format: 'asc' }, { target_field: 'asc' }], limit: page.limit, offset: page.offset },
  );
}

/**
 * Makes the organization's mappings the given ones: a mapping of the same field (same uuid) is
 * updated, new ones added, the rest removed. Flushed by the caller.
 */
export async function replaceMappings(
  em: EntityManager,
  organizationId: string,
  mappings: readonly EinvoiceFieldMappingFields[],
  now: Date,
): Promise<{ added: number; updated: number; removed: number }> {
  const existing = new Map(
    (await em.find(EinvoiceFieldMappingEntity, { organization_id: organizationId })).map((row) => [row.id, row]),
  );
  let added = 0;
  for (const { uuid, ...fields } of mappings) {
    const row = existing.get(uuid);
    if (row) {
      em.assign(row, { ...fields, imported_at: now });
      existing.delete(uuid);
    } else {
      em.create(EinvoiceFieldMappingEntity, { id: uuid, organization_id: organizationId, ...fields, imported_at: now });
      added += 1;
    }
  }
  for (const row of existing.values()) em.remove(row);
  return { added, updated: mappings.length - added, removed: existing.size };
}
