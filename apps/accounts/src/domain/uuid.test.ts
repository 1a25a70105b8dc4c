import { describe, expect, it } from 'vitest';
import { lookupUuids } from './uuid.js';

const A = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const B = '7b7e1c2a-0e0f-4d8c-8c3e-2f9a6b1d4e57';

describe('lookupUuids', () => {
  it('asks only for well-formed uuids, lower-cased, once each', () => {
    expect(lookupUuids([A, A.toUpperCase(), 'not-a-uuid', '', B])).toEqual([A, B]);
  });
});
