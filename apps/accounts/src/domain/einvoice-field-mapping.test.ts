import { describe, expect, it } from 'vitest';
import { mappingFromRow, mappingsFromRows } from './einvoice-field-mapping.js';

const ORG = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const CUSTOM = '7b7e1c2a-0e0f-4d8c-8c3e-2f9a6b1d4e57';

describe('mappingFromRow', () => {
  it('reads a builtin mapping; its uuid is the same for the same organization, format and field', () => {
    const row = {
      format: 'peppol_bis',
      target_field: 'order_reference',
      source_type: 'builtin',
      source_builtin_field: 'po_number',
    };
    const { record, violations } = mappingFromRow(row, ORG);

    expect(violations).toEqual([]);
    expect(record).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      format: 'peppol_bis',
      target_field: 'order_reference',
      source_type: 'builtin',
      source_builtin_field: 'po_number',
      source_custom_field: null,
    });
    expect(mappingFromRow({ ...row, source_builtin_field: 'case_number' }, ORG).record?.uuid).toBe(record?.uuid);
    expect(mappingFromRow(row, CUSTOM).record?.uuid).not.toBe(record?.uuid);
  });

  it('reads a custom field mapping', () => {
    expect(
      mappingFromRow(
        {
          format: 'peppol_bis',
          target_field: 'buyer_reference',
          source_type: 'custom_field',
          source_custom_field: CUSTOM.toUpperCase(),
        },
        ORG,
      ).record,
    ).toMatchObject({ source_type: 'custom_field', source_builtin_field: '', source_custom_field: CUSTOM });
  });

  it.each([
    [
      {},
      [
        'format: This field is required.',
        'source_type: This field is required.',
        'target_field: This field is required.',
      ],
    ],
    [
      { format: 'ubl', target_field: 'x', source_type: 'static' },
      ['format: "ubl" is not a valid choice.', 'source_type: "static" is not a valid choice.'],
    ],
    [
      {
        format: 'peppol_bis',
        target_field: 'colour',
        source_type: 'builtin',
        source_builtin_field: 'colour',
        source_custom_field: CUSTOM,
      },
      [
        'target_field: "colour" is not a field of peppol_bis.',
        'source_builtin_field: "colour" is not a valid choice.',
        'source_custom_field: Must be empty when source_type is builtin.',
      ],
    ],
    [
      {
        format: 'peppol_bis',
        target_field: 'invoice_note',
        source_type: 'custom_field',
        source_builtin_field: 'po_number',
        source_custom_field: 'x',
      },
      [
        'source_custom_field: Must be a valid UUID.',
        'source_builtin_field: Must be empty when source_type is custom_field.',
      ],
    ],
  ])('names what is wrong with %j', (row, expected) => {
    const { record, violations } = mappingFromRow(row, ORG);
    expect(record).toBeNull();
    expect(violations.map((violation) => `${violation.field}: ${violation.description}`)).toEqual(expected);
  });
});

describe('mappingsFromRows', () => {
  it('refuses a field mapped twice, naming both lines', () => {
    const row = {
      format: 'peppol_bis',
      target_field: 'order_reference',
      source_type: 'builtin',
      source_builtin_field: 'po_number',
    };
    expect(mappingsFromRows([row, { ...row, source_builtin_field: 'case_number' }], ORG).violations).toEqual([
      { field: 'line 3', description: 'Maps the same format and target_field as line 2.' },
    ]);
  });
});
