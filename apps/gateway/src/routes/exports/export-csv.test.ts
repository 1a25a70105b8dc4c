import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { csvCells, csvColumns, csvFile } from './export-csv.js';

const Item = z.object({
  uuid: z.string(),
  account: z.object({ code: z.string(), name: z.string().nullable() }).nullable(),
  total: z.number(),
  paid: z.boolean(),
  note: z.string().nullable(),
  tags: z.array(z.string()),
  custom_fields: z.record(z.string(), z.unknown()),
});

describe('CSV of a list representation', () => {
  it('has a column per field, nested objects as dotted columns, arrays and records as one', () => {
    expect(csvColumns(Item)).toEqual([
      'uuid',
      'account.code',
      'account.name',
      'total',
      'paid',
      'note',
      'tags',
      'custom_fields',
    ]);
  });

  it('writes text as is, numbers and booleans as JSON does, null as empty, arrays and objects as JSON', () => {
    const columns = csvColumns(Item);
    expect(
      csvCells(columns, {
        uuid: 'u-1',
        account: null,
        total: 1250.5,
        paid: false,
        note: null,
        tags: ['a', 'b'],
        custom_fields: { cost_center: 7 },
      }),
    ).toEqual(['u-1', '', '', '1250.5', 'false', '', '["a","b"]', '{"cost_center":7}']);
  });

  it('is RFC 4180: CRLF after every record, quotes around commas, quotes and line breaks, quotes doubled', async () => {
    async function* pages() {
      yield [
        {
          uuid: 'a,b',
          account: { code: 'say "hi"', name: 'line\nbreak' },
          total: 1,
          paid: true,
          note: 'cr\r',
          tags: [],
          custom_fields: {},
        },
      ];
      yield [];
      yield [{ uuid: 'plain', account: null, total: -0.5, paid: false, note: '', tags: [], custom_fields: {} }];
    }
    expect(await text(csvFile(['uuid', 'account.code', 'account.name', 'note', 'total'], pages()))).toBe(
      'uuid,account.code,account.name,note,total\r\n' +
        '"a,b","say ""hi""","line\nbreak","cr\r",1\r\n' +
        'plain,,,,-0.5\r\n',
    );
  });

  it('ends the file with the error of a page that cannot be read', async () => {
    async function* pages(): AsyncIterable<object[]> {
      yield [{ uuid: 'x' }];
      throw new Error('page 2 is gone');
    }
    await expect(text(csvFile(['uuid'], pages()))).rejects.toThrow('page 2 is gone');
  });
});
