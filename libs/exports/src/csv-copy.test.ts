import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { csvPagesOfCopy, gzippedPages } from './csv-copy.js';
import { withLiterals } from './run-export-jobs.js';

async function pagesOf(chunks: string[], pageBytes?: number) {
  async function* source() {
    for (const chunk of chunks) yield Buffer.from(chunk);
  }
  const pages = [];
  for await (const page of csvPagesOfCopy(source(), pageBytes)) {
    pages.push({ text: Buffer.from(page.data).toString(), rows: page.rows, read: page.read });
  }
  return pages;
}

describe('csvPagesOfCopy', () => {
  it('ends records with CRLF, keeps line breaks inside quoted fields, across chunk boundaries', async () => {
    expect(await pagesOf(['a,"x\ny",1\nb,"say ""hi', '""",2\n', 'c,,3\n'])).toEqual([
      { text: 'a,"x\ny",1\r\nb,"say ""hi""",2\r\nc,,3\r\n', rows: 3, read: 3 },
    ]);
  });

  it('cuts pages after the record that reaches the size, never inside one', async () => {
    expect(await pagesOf(['aaaa\nbb\ncccccc\nd\n'], 6)).toEqual([
      { text: 'aaaa\r\n', rows: 1, read: 1 },
      { text: 'bb\r\ncccccc\r\n', rows: 2, read: 3 },
      { text: 'd\r\n', rows: 1, read: 4 },
    ]);
  });

  it('gzips each page as it is, rows and progress kept', async () => {
    async function* source() {
      yield Buffer.from('a\nb\nc\n');
    }
    const pages = [];
    for await (const page of gzippedPages(csvPagesOfCopy(source(), 4))) {
      pages.push({ text: gunzipSync(page.data).toString(), rows: page.rows, read: page.read });
    }
    expect(pages).toEqual([
      { text: 'a\r\nb\r\n', rows: 2, read: 2 },
      { text: 'c\r\n', rows: 1, read: 3 },
    ]);
  });

  it('has no page for no rows, and refuses output that ends inside a record', async () => {
    expect(await pagesOf([])).toEqual([]);
    await expect(pagesOf(['a,b\nc,"d'])).rejects.toThrow('COPY ended inside a record');
  });
});

describe('withLiterals', () => {
  it('writes each value as a literal, leaving quoted identifiers and literals alone', () => {
    expect(
      withLiterals({
        sql: `select "a?" from t where x = ? and y = '?' and z in (?, ?) and w = ? and v = ? and u = ?`,
        params: ["it's", 12.5, true, null, new Date('2026-01-15T09:00:00Z'), 10n],
      }),
    ).toBe(
      `select "a?" from t where x = 'it''s' and y = '?' and z in (12.5, true) and w = null and v = '2026-01-15T09:00:00.000Z'::timestamptz and u = 10`,
    );
    // pg's escapeLiteral writes a backslash as an E'' literal (with a space before it).
    expect(withLiterals({ sql: 'select ?', params: ['back\\slash'] })).toBe(`select  E'back\\\\slash'`);
  });

  it('refuses a value it has no literal for', () => {
    expect(() => withLiterals({ sql: 'select ?', params: [[1, 2]] })).toThrow('no SQL literal');
    expect(() => withLiterals({ sql: 'select ?', params: [Number.NaN] })).toThrow('no SQL literal');
  });
});
