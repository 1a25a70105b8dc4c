import { isUuid } from '@billing/domain-kit';
import type { FieldViolation } from '@billing/errors';
import {
  EINVOICE_BUILTIN_FIELDS,
  EINVOICE_FORMATS,
  EINVOICE_SOURCE_TYPES,
  isEinvoiceTargetField,
} from '@billing/reference-data';
import { type ImportRow, type ParsedRow, recordsFromRows } from './import-rows.js';
import { nameBasedUuid } from './uuid.js';

/** api-spec "E-invoice field mapping": which value fills one field of an e-invoice format. */
export interface EinvoiceFieldMappingFields {
  uuid: string;
  format: string;
  target_field: string;
  source_type: string;
  /** '' unless source_type is builtin. */
  source_builtin_field: string;
  /** null unless source_type is custom_field. */
  source_custom_field: string | null;
}

/** The columns of an import file (the representation's fields but the uuid, which is derived). */
export const EINVOICE_FIELD_MAPPING_COLUMNS = [
  'format',
  'target_field',
  'source_type',
  'source_builtin_field',
  'source_custom_field',
] as const;

/** Namespace of mapping uuids: one per organization, format and target field, in every import. */
const MAPPING_NAMESPACE = '9b1f4c7e-2d3a-4f5b-8c6d-7e8f9a0b1c2d';

const choice = (values: readonly string[], text: string) => values.includes(text);

/** One row of an import file as a mapping, or what is wrong with it (each violation names its column). */
export function mappingFromRow(row: ImportRow, organizationId: string): ParsedRow<EinvoiceFieldMappingFields> {
  const value = (column: string) => (row[column] ?? '').trim();
  const violations: FieldViolation[] = [];
  const [format, target, sourceType] = [value('format'), value('target_field'), value('source_type')];
  const builtin = value('source_builtin_field');
  const custom = value('source_custom_field');
  for (const [column, text, values] of [
    ['format', format, EINVOICE_FORMATS],
    ['source_type', sourceType, EINVOICE_SOURCE_TYPES],
  ] as const) {
    if (text === '') violations.push({ field: column, description: 'This field is required.' });
    else if (!choice(values, text)) violations.push({ field: column, description: `"${text}" is not a valid choice.` });
  }
  if (target === '') violations.push({ field: 'target_field', description: 'This field is required.' });
  else if (choice(EINVOICE_FORMATS, format) && !isEinvoiceTargetField(format, target)) {
    violations.push({ field: 'target_field', description: `"${target}" is not a field of ${format}.` });
  }
  if (sourceType === 'builtin') {
    if (builtin === '') violations.push({ field: 'source_builtin_field', description: 'This field is required.' });
    else if (!choice(EINVOICE_BUILTIN_FIELDS, builtin)) {
      violations.push({ field: 'source_builtin_field', description: `"${builtin}" is not a valid choice.` });
    }
    if (custom !== '') {
      violations.push({ field: 'source_custom_field', description: 'Must be empty when source_type is builtin.' });
    }
  }
  if (sourceType === 'custom_field') {
    if (custom === '') violations.push({ field: 'source_custom_field', description: 'This field is required.' });
    else if (!isUuid(custom)) violations.push({ field: 'source_custom_field', description: 'Must be a valid UUID.' });
    if (builtin !== '') {
      violations.push({
        field: 'source_builtin_field',
        description: 'Must be empty when source_type is custom_field.',
      });
    }
  }
  if (violations.length > 0) return { record: null, violations };
  return {
    record: {
      uuid: nameBasedUuid(MAPPING_NAMESPACE, `${organizationId}/${format}/${target}`),
      format,
      target_field: target,
      source_type: sourceType,
      source_builtin_field: sourceType === 'builtin' ? builtin : '',
      source_custom_field: sourceType === 'custom_field' ? custom.toLowerCase() : null,
    },
    violations,
  };
}

/** Every row of a file as mappings, or every violation (see recordsFromRows). */
export function mappingsFromRows(rows: readonly ImportRow[], organizationId: string) {
  return recordsFromRows(
    rows,
    (row) => mappingFromRow(row, organizationId),
    (mapping) => mapping.uuid,
    (first) => `Maps the same format and target_field as line ${first}.`,
  );
}
