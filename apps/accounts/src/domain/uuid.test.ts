import { describe, expect, it } from 'vitest';
import { lookupUuids, nameBasedUuid } from './uuid.js';

const A = '0d1f6c1e-5a55-4c2b-9a8e-3f1d2c4b5a69';
const B = '7b7e1c2a-0e0f-4d8c-8c3e-2f9a6b1d4e57';

describe('lookupUuids', () => {
  it('asks only for well-formed uuids, lower-cased, once each', () => {
    expect(lookupUuids([A, A.toUpperCase(), 'not-a-uuid', '', B])).toEqual([A, B]);
  });
});

describe('nameBasedUuid', () => {
  it('gives the version 5 uuid of RFC 9562 appendix A.4', () => {
    expect(nameBasedUuid('6ba7b810-9dad-11d1-80b4-00c04fd430c8', 'www.example.com')).toBe(
      '2ed6657d-e927-568b-95e1-2665a8aea6a2',
    );
  });
});
