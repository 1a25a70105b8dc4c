import { describe, expect, it } from 'vitest';
import { applyWrite, pageSpec, resolveOrdering, textLength, type WritableShape } from './index.js';

interface Widget {
  name: string;
  color: string | null;
  size: number;
}
const SHAPE: WritableShape<Widget> = { required: ['name'], defaults: { color: null, size: 1 } };
const write = (values: Partial<Record<keyof Widget, unknown>>) => ({
  values: values as Partial<{ [K in keyof Widget]: Widget[K] | null }>,
  present: new Set(Object.keys(values)),
});

describe('applyWrite (DRF write semantics)', () => {
  it('creates from defaults, requires required fields on create and PUT, patches only what was sent', () => {
    expect(applyWrite(SHAPE, null, write({ name: 'a' }), 'create')).toEqual({
      fields: { name: 'a', color: null, size: 1 },
      violations: [],
    });
    expect(applyWrite(SHAPE, null, write({}), 'create').violations).toEqual([
      { field: 'name', description: 'This field is required.' },
    ]);
    const current = { name: 'a', color: 'red', size: 2 };
    expect(applyWrite(SHAPE, current, write({ size: 3 }), 'replace').violations).toHaveLength(1);
    expect(applyWrite(SHAPE, current, write({ color: null, other: 'x' } as never), 'patch').fields).toEqual({
      name: 'a',
      color: null,
      size: 2,
    });
    expect(applyWrite(SHAPE, current, write({ size: null }), 'patch').violations).toEqual([
      { field: 'size', description: 'This field may not be null.' },
    ]);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])(
    'ignores a sent %s like any unknown name (never an Object.prototype member)',
    (name) => {
      const values = Object.create(null) as Record<string, unknown>;
      values[name] = 'x';
      values.size = 4;
      const applied = applyWrite(SHAPE, null, { values, present: new Set([name, 'name', 'size']) } as never, 'create');
      expect(applied.violations).toEqual([{ field: 'name', description: 'This field may not be null.' }]);
      const patched = applyWrite(
        SHAPE,
        { name: 'a', color: null, size: 1 },
        { values, present: new Set([name, 'size']) } as never,
        'patch',
      );
      expect(patched.fields).toEqual({ name: 'a', color: null, size: 4 });
      expect(Object.getPrototypeOf(patched.fields)).toBe(Object.prototype);
      expect(Object.keys(patched.fields as object)).toEqual(['name', 'color', 'size']);
    },
  );
});

describe('paging and ordering', () => {
  it('defaults and bounds paging, and resolves the first ordering term through the whitelist', () => {
    expect(pageSpec(undefined)).toEqual({ page: 1, pageSize: 20, ordering: '' });
    expect(pageSpec({ page: 3, page_size: 500, ordering: '-code' })).toEqual({
      page: 3,
      pageSize: 100,
      ordering: '-code',
    });
    const whitelist = { code: 'code', created_date: 'created_at' };
    expect(resolveOrdering('-created_date,code', whitelist, 'code')).toEqual({
      column: 'created_at',
      direction: 'desc',
    });
    expect(resolveOrdering('bogus', whitelist, 'created_date')).toEqual({ column: 'created_at', direction: 'asc' });
  });

  it.each(['constructor', '-toString', '__proto__', 'hasOwnProperty'])(
    'falls back to the default ordering for %s (never an Object.prototype member as a column)',
    (ordering) => {
      const whitelist = { code: 'code', created_date: 'created_at' };
      expect(resolveOrdering(ordering, whitelist, '-created_date')).toEqual({
        column: 'created_at',
        direction: 'desc',
      });
    },
  );
});

describe('textLength', () => {
  it('counts code points, as DRF and PostgreSQL do: an emoji is one character', () => {
    expect(['', 'abc', '😀', '😀😀x', 'e\u0301', '👩‍👩‍👧', '\ud800', '\ud800x', 'x\udc00'].map(textLength)).toEqual([
      0, 3, 1, 3, 2, 5, 1, 2, 2,
    ]);
  });
});
