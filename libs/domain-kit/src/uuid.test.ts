import { describe, expect, it } from 'vitest';
import { canonicalUuid, canonicalUuidOrText, isUuid } from './uuid.js';

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

describe('canonicalUuid', () => {
  it('writes every form Postgres or DRF accept as Postgres shows it, and refuses the rest', () => {
    const forms = [
      A,
      A.toUpperCase(),
      A.replaceAll('-', ''),
      `{${A}}`,
      `urn:uuid:${A}`,
      '0d1f-6c1e-5a55-4c2b-9a8e-3f1d-2c4b-5a69',
    ];
    expect(forms.map(canonicalUuid)).toEqual(forms.map(() => A));
    expect(['', 'not-a-uuid', `${A}0`, A.slice(1), `{${A}`].map(canonicalUuid)).toEqual([null, null, null, null, null]);
  });
});

describe('canonicalUuidOrText', () => {
  it('writes a uuid in any accepted form as Postgres shows it, and keeps other text as it came', () => {
    expect([A, A.toUpperCase(), `{${A}}`, A.replaceAll('-', '')].map(canonicalUuidOrText)).toEqual([A, A, A, A]);
    expect(['', 'Not-A-Uuid', `${A}0`].map(canonicalUuidOrText)).toEqual(['', 'Not-A-Uuid', `${A}0`]);
  });
});
