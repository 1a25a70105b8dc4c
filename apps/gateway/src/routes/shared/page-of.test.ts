import { describe, expect, it } from 'vitest';
import { pageOf } from './page-of.js';

describe('pageOf', () => {
  it("sends the client's ordering terms, comma-joined, whatever the default", () => {
    expect(pageOf({ page: 3, pageSize: 50, ordering: ['-name', 'created_date'] }, 'created_date')).toEqual({
      page: 3,
      page_size: 50,
      ordering: '-name,created_date',
    });
  });

  it('sends the default ordering when the client asked for none, else an empty one (the service decides)', () => {
    expect(pageOf({ page: 1, pageSize: 20, ordering: [] }, '-invoice_number')).toEqual({
      page: 1,
      page_size: 20,
      ordering: '-invoice_number',
    });
    expect(pageOf({ page: 1, pageSize: 20, ordering: [] })).toEqual({ page: 1, page_size: 20, ordering: '' });
  });
});
