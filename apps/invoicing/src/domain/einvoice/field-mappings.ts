import { EINVOICE_TARGET_FIELDS } from '@billing/reference-data';
import type { InvoiceView } from '../invoice-view.js';
import type { FieldMapping } from './einvoice-snapshot.js';

/** The values of the peppol_bis target fields (gaps.md §10, docs/api.md "E-invoice field mappings"). */
export type MappedFields = Record<string, string>;

/**
 * Fills every peppol_bis target field: by the organization's mapping for it, else by the default
 * the available-fields list names. Line fields (reference person, case number, ...) come from the
 * first line that has one; a custom field from the first line whose custom_fields has its uuid.
 */
export function mappedFields(invoice: InvoiceView, mappings: readonly FieldMapping[]): MappedFields {
  const fields: MappedFields = {};
  for (const target of EINVOICE_TARGET_FIELDS) {
    if (target.format !== 'peppol_bis') continue;
    const own = mappings.find((mapping) => mapping.target_field === target.target_field);
    const mapping: FieldMapping = own ?? {
      target_field: target.target_field,
      source_type: 'builtin',
      source_builtin_field: target.default_source ?? '',
      source_custom_field: null,
    };
    fields[target.target_field] = mappedValue(invoice, mapping).trim();
  }
  return fields;
}

function mappedValue(invoice: InvoiceView, mapping: FieldMapping): string {
  if (mapping.source_type === 'custom_field') {
    const key = mapping.source_custom_field ?? '';
    for (const line of invoice.lines) {
      const value = line.custom_fields[key];
      if (typeof value === 'string' && value.trim() !== '') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    }
    return '';
  }
  switch (mapping.source_builtin_field) {
    case 'account_code':
      return invoice.account_code;
    case 'invoice_number':
      return invoice.invoice_number ?? '';
    case 'po_number':
      return invoice.po_number || firstOfLines(invoice, (line) => line.po_number);
    case 'reference_person':
      return firstOfLines(invoice, (line) => line.reference_person);
    case 'account_reference_person':
      return firstOfLines(invoice, (line) => line.account_reference_person);
    case 'case_number':
      return firstOfLines(invoice, (line) => line.case_number);
    case 'invoice_supplement':
      return firstOfLines(invoice, (line) => line.invoice_supplement ?? '');
    default:
      return '';
  }
}

function firstOfLines(invoice: InvoiceView, pick: (line: InvoiceView['lines'][number]) => string): string {
  for (const line of invoice.lines) {
    const value = pick(line).trim();
    if (value !== '') return value;
  }
  return '';
}
