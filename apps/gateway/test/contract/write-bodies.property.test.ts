/**
 * Property: no body makes a write endpoint answer 5xx, and a body refused with 400 changes nothing.
 *
 * Every write operation (POST, PUT, PATCH) of the OpenAPI document at /api/schema/ is aimed at real
 * objects (write-endpoints.ts), so its body validation runs rather than a 404. Bodies are generated
 * by fast-check: a valid body with one to three fields (documented or not) replaced by hostile
 * values (wrong types, NUL, lone surrogates, right-to-left and combining marks, emoji, huge and
 * deeply nested values, numbers JSON cannot carry), or a hostile value as the whole body. After a
 * 400 the reads that show the operation's effect must be unchanged.
 *
 * Time-bounded for CI: a fixed seed per operation (PROPERTY_SEED to replay another), RUNS bodies per
 * operation with a body (PROPERTY_RUNS), fewer for actions without one; no shrinking (each run is a
 * few HTTP requests): a failure names the operation, the seed, the body and the answer.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse, TestOrganization } from '../support/platform.js';
import { accountPath, type Json, newOrganization, usePlatform } from './helpers.js';
import {
  baseOperationId,
  createWriteTargets,
  type DocumentedWrite,
  documentedWrites,
  snapshot,
  type WriteTarget,
  type WriteTargets,
  writeTargets,
} from './write-endpoints.js';

const platform = usePlatform();

const SEED = Number(process.env.PROPERTY_SEED ?? 20_261_125);
const RUNS = Number(process.env.PROPERTY_RUNS ?? 10);
const RUNS_WITHOUT_BODY = 3;
/** A refusal is short: it never echoes a large input back. */
const MAX_REFUSAL_BYTES = 16 * 1024;

/** JSON text inserted as is: numbers and nesting that JSON.stringify cannot write. */
class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify, but RawJson goes in verbatim (and lone surrogates are escaped, as JSON.stringify does). */
function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const nestedArrays = (depth: number) => new RawJson(`${'['.repeat(depth)}"DK"${']'.repeat(depth)}`);
const nestedObjects = (depth: number) => new RawJson(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

/** Characters that break naive text handling, each as one string. */
const oddCharacter = fc.constantFrom(
  '\u0000',
  '\ud800',
  '\udfff',
  '\u202e', // right-to-left override
  '\u200f', // right-to-left mark
  '\u0301', // combining acute accent
  '\ufeff', // byte order mark
  '\uffff',
  '👩‍👩‍👧',
  '😀',
  'ß',
  'Ω',
  '١',
  '\n',
  '\t',
  '"',
  '\\',
  '%',
  '_',
  "'",
);

const oddText = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('a\u0000b', '\u0000', '\ud800', 'x\udfffy', '\u202eabc\u0301', '👩‍👩‍👧'),
  },
  fc.string({ unit: fc.oneof(oddCharacter, fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.constantFrom('', ' ', '  \u00a0 ', 'null', 'None', 'true', '0', '-0', '1e400', 'NaN', 'Infinity', '2026-02-30'),
  fc.constantFrom('0001-01-01T00:00:00+00:01', '9999-12-31T23:59:59-00:01', '0000-00-00', '20260115', '99:99'),
  fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'DK', 'invoice', 'month', 'percentage'),
  fc.constantFrom('0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f', '{0B6F0F5E8A4E4C1E9A553F3F3F3F3F3F}', 'urn:uuid:x'),
  fc.nat({ max: 70_000 }).map((length) => 'x'.repeat(length)),
  fc.nat({ max: 3_000 }).map((length) => '😀'.repeat(length)),
  fc.nat({ max: 200 }).map((length) => '9'.repeat(length)),
);

const oddNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -1, 1.5, 2_147_483_647, 2_147_483_648, -2_147_483_649, Number.MAX_SAFE_INTEGER, 1e20, 5e-324),
  fc.constantFrom(
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('9007199254740993'),
    new RawJson('-0'),
    new RawJson('1E-400'),
    new RawJson('0.1000000000000000055511151231257827'),
    new RawJson(`1${'0'.repeat(400)}`),
  ),
);

const oddNesting = fc.oneof(
  fc.constantFrom(31, 32, 33, 40, 1_000, 100_000).map(nestedArrays),
  fc.constantFrom(31, 32, 33, 40, 5_000).map(nestedObjects),
  fc.nat({ max: 2_000 }).map((length) => Array.from({ length }, (_, index) => index)),
);

/** Any hostile value a field (or a whole body) may be given. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddText },
  { weight: 2, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], { '': '' }) },
  { weight: 1, arbitrary: oddNesting },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(oddText, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
  },
);

/** Names to put hostile values under: the operation's fields, and some it does not have. */
const extraNames = fc.constantFrom('__proto__', 'constructor', '', '\u0000', 'uuid', 'model', 'x'.repeat(300));

function fieldNames(write: DocumentedWrite): string[] {
  const body = write.body!;
  const isList = (Array.isArray(body.type) ? body.type : [body.type]).includes('array');
  return Object.keys((isList ? body.items?.properties : body.properties) ?? {});
}

/** A body for `write`: its valid body with some fields made hostile, or a hostile whole body. */
function bodies(write: DocumentedWrite, target: WriteTarget): fc.Arbitrary<unknown> {
  const whole = hostileValue;
  if (write.body === undefined) return fc.option(whole, { nil: undefined });
  const names = fieldNames(write);
  const mutation = fc.tuple(
    fc.uniqueArray(
      // A body documented without named fields (an export's list filters) gets only extra names.
      names.length === 0
        ? extraNames
        : fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: extraNames }),
      {
        minLength: 1,
        maxLength: 3,
      },
    ),
    fc.array(hostileValue, { minLength: 3, maxLength: 3 }),
    fc.boolean(),
  );
  const mutated = mutation.map(([fields, values, dropRequired]) => {
    const base = target.validBody;
    const mutate = (item: Json): Json => {
      const body: Json = { ...item };
      // Own properties only: "__proto__" must be a key of the JSON text, not the object's prototype.
      for (const [index, name] of fields.entries()) {
        Object.defineProperty(body, name, {
          value: values[index],
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      if (dropRequired) delete body[Object.keys(item)[0] ?? ''];
      return body;
    };
    return Array.isArray(base) ? [mutate(base[0] as Json), ...base.slice(1)] : mutate(base as Json);
  });
  return fc.oneof({ weight: 5, arbitrary: mutated }, { weight: 1, arbitrary: whole });
}

async function send(organization: TestOrganization, method: string, path: string, body: unknown): Promise<ApiResponse> {
  return organization.api.raw(path, {
    method: method.toUpperCase(),
    headers: {
      Authorization: `Token ${organization.token}`,
      'X-Client-System': 'property-tests',
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: toJson(body) }),
  });
}

describe('generated hostile bodies on every write endpoint', () => {
  let organization: TestOrganization;
  let targets: WriteTargets;
  let writes: DocumentedWrite[];

  beforeAll(async () => {
    organization = await newOrganization(platform());
    targets = await createWriteTargets(organization.api);
    writes = (await documentedWrites(platform().baseUrl)).filter((write) => !write.operationId.endsWith('Alias'));
  });

  it('every write operation of the OpenAPI document is aimed at real objects', () => {
    const aimed = writeTargets(targets);
    expect(writes.length).toBeGreaterThan(30);
    expect(writes.map((write) => write.operationId).filter((id) => !aimed[baseOperationId(id)])).toEqual([]);
  });

  it('never answers 5xx, and a 400 changes nothing', async () => {
    const originalCode = targets.account.code;
    for (const [index, write] of writes.entries()) {
      const target = writeTargets(targets)[baseOperationId(write.operationId)]!;
      const seed = SEED + index;
      const property = fc.asyncProperty(bodies(write, target), async (body) => {
        const before = await snapshot(organization.api, target.reads);
        const response = await send(organization, write.method, target.path, body);
        const answer = `${write.method.toUpperCase()} ${target.path} (seed ${seed}) answered ${response.status}: ${response.text.slice(0, 500)}\nbody: ${toJson(body).slice(0, 500)}`;
        expect(response.status, answer).toBeLessThan(500);
        if (response.status >= 400) expect(response.text.length, answer).toBeLessThan(MAX_REFUSAL_BYTES);
        if (response.status === 400) expect(await snapshot(organization.api, target.reads), answer).toEqual(before);
        await restoreAccountCode(response, originalCode);
      });
      await fc.assert(property, {
        seed,
        numRuns: write.body === undefined ? RUNS_WITHOUT_BODY : RUNS,
        endOnFailure: true,
      });
    }
  }, 600_000);

  /** A generated body may rename the target account: name it back, so its paths keep working. */
  async function restoreAccountCode(response: ApiResponse, originalCode: string): Promise<void> {
    if (response.status !== 200 || response.body?.model !== 'account' || response.body.code === originalCode) return;
    const restored = await organization.api.patch(accountPath(response.body.code), { code: originalCode });
    expect(restored.status).toBe(200);
  }
});
