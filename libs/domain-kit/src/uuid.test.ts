import { describe, expect, it } from 'vitest';
import { isUuid } from './uuid.js';

const A = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';

describe('isUuid', () => {
  it('takes the canonical form in either case and nothing else', () => {
    expect([A, A.toUpperCase()].map(isUuid)).toEqual([true, true]);
    expect(['', 'not-a-uuid', A.replaceAll('-', ''), `${A} `, `{${A}}`, A.slice(1)].map(isUuid)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
