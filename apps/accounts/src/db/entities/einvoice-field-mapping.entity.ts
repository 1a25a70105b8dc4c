import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

/**
 * An e-invoice field mapping the organization imported (admin `import-einvoice-field-mappings`;
 * api-spec "E-invoice field mapping"): one per format and target field, its uuid derived from
 * them, so an import again keeps it.
 */
export const EinvoiceFieldMappingEntity = defineEntity({
  name: 'EinvoiceFieldMapping',
  tableName: 'einvoice_field_mapping',
  uniques: [
    { name: 'einvoice_field_mapping_target_unique', properties: ['organization_id', 'format', 'target_field'] },
  ],
  properties: {
    id: p.uuid().primary(),
    organization_id: p.uuid(),
    format: p.string().length(32),
    target_field: p.string().length(64),
    source_type: p.string().length(32),
    source_builtin_field: p.string().length(64),
    source_custom_field: p.uuid().nullable(),
    imported_at: p.datetime(),
  },
});

export type EinvoiceFieldMappingRow = InferEntity<typeof EinvoiceFieldMappingEntity>;
