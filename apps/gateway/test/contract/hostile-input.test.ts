/**
 * Hostile input is a 400 naming what is wrong, never a 5xx, and a refused write changes nothing
 * (docs/api.md "Input limits"): NUL characters and lone surrogates in any text (body fields,
 * custom_fields keys and values, path parameters, text filters), values nested too deep, oversized
 * custom_fields and text, numbers JSON cannot carry exactly, bytes that are not UTF-8, instants
 * outside years 1-9999. The field lists come from the OpenAPI document, so a new field or endpoint
 * is covered without editing this file.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient, TestOrganization } from '../support/platform.js';
import {
  ACCOUNTS,
  accountInput,
  accountPath,
  createAccount,
  expectStatus,
  type Json,
  newOrganization,
  uniqueCode,
  usePlatform,
} from './helpers.js';
import { DRAFT_LINES, draftLinePath, generateInvoicePath, INVOICES } from './invoices-helpers.js';
import { SUBSCRIPTIONS, subscriptionPath } from './subscriptions-helpers.js';
import {
  baseOperationId,
  createWriteTargets,
  type DocumentedWrite,
  documentedWrites,
  type JsonSchema,
  snapshot,
  type WriteTargets,
  writeTargets,
} from './write-endpoints.js';

/** Writes whose body is a list's filters (exports): not a set of documented fields. */
const FILTER_BODIES = new Set([
  'exportInvoices',
  'exportAccounts',
  'exportSubscriptions',
  'exportActivities',
  'exportAccountActivities',
]);

const platform = usePlatform();

const NUL = 'Null characters are not allowed.';
const SURROGATE = 'Unpaired surrogate characters are not allowed.';
const TOO_DEEP = 'Ensure this value has no more than 32 levels of nesting.';
const TOO_LARGE = 'Ensure this value has no more than 65536 bytes as JSON.';
const INEXACT =
  'Ensure every number is finite and every whole number is between -9007199254740991 and 9007199254740991.';

/** A body sent as raw JSON text (numbers like 1e400, nesting JSON.stringify cannot write). */
function sendRaw(organization: TestOrganization, method: string, path: string, body: string | Buffer) {
  return organization.api.raw(path, {
    method,
    headers: {
      Authorization: `Token ${organization.token}`,
      'X-Client-System': 'contract-tests',
      'Content-Type': 'application/json',
    },
    body,
  });
}

const types = (schema: JsonSchema): string[] =>
  Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];

/**
 * What a field answers to a text value it cannot use, by the field's documented kind: free text
 * says why the text is unstorable (`textMessage`), the others refuse any such text by their type.
 */
function refusalFor(schema: JsonSchema, value: string, textMessage: string): string {
  if (schema.enum) return `"${value}" is not a valid choice.`;
  // A text where a list belongs is refused for its type before its characters are read.
  if (types(schema).includes('array')) return 'Expected a list of items but got type "str".';
  switch (schema.format) {
    case 'uuid':
      return 'Must be a valid UUID.';
    case 'date':
      return 'Date has wrong format. Use one of these formats instead: YYYY-MM-DD.';
    case 'date-time':
      return 'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].';
    case 'decimal':
      return 'A valid number is required.';
    case 'email':
      return 'Enter a valid email address.';
  }
  if (types(schema).includes('integer')) return 'A valid integer is required.';
  if (types(schema).includes('boolean')) return 'Must be a valid boolean.';
  return textMessage;
}

/** The hostile value a field gets: the text itself, or inside an object for free-form objects. */
const hostileValue = (schema: JsonSchema, text: string): unknown =>
  types(schema).includes('object') ? { note: text, [`key${text}`]: 1 } : text;

describe('every field of every write body', () => {
  let organization: TestOrganization;
  let targets: WriteTargets;
  let writes: DocumentedWrite[];

  beforeAll(async () => {
    organization = await newOrganization(platform());
    targets = await createWriteTargets(organization.api);
    writes = (await documentedWrites(platform().baseUrl)).filter(
      (write) => !write.operationId.endsWith('Alias') && write.body !== undefined,
    );
  });

  it.each([
    ['a NUL character', 'a\u0000b', NUL],
    ['a lone surrogate', 'a\ud800b', SURROGATE],
  ])('%s is refused in each field, naming it, and nothing changes', async (_label, text, textMessage) => {
    const aimed = writeTargets(targets);
    for (const write of writes) {
      const target = aimed[baseOperationId(write.operationId)];
      expect(target, `${write.operationId} has a target in write-endpoints.ts`).toBeDefined();
      const isList = types(write.body!).includes('array');
      const fields = (isList ? write.body!.items?.properties : write.body!.properties) ?? {};
      // An export's body is its list's query filters, free-form in the document; hostile filter
      // values are the lists' own tests (filter-values), which the export validates the same way.
      if (FILTER_BODIES.has(baseOperationId(write.operationId))) continue;
      expect(Object.keys(fields).length, `${write.operationId} documents its fields`).toBeGreaterThan(0);
      const hostile = Object.fromEntries(Object.entries(fields).map(([name, s]) => [name, hostileValue(s, text)]));
      const expected = Object.fromEntries(
        Object.entries(fields).map(([name, s]) => [name, [refusalFor(s, text, textMessage)]]),
      );
      const before = await snapshot(organization.api, target!.reads);

      const response = await organization.api[write.method](target!.path, isList ? [hostile] : hostile);

      expect({ operation: write.operationId, status: response.status, body: response.body }).toEqual({
        operation: write.operationId,
        status: 400,
        body: isList ? [expected] : expected,
      });
      expect(await snapshot(organization.api, target!.reads)).toEqual(before);
    }
  });
});

describe('path parameters', () => {
  it('a NUL in any path parameter of any operation is 400 naming the parameter', async () => {
    const { api } = await newOrganization(platform());
    const document = (await (await fetch(`${platform().baseUrl}/api/schema/`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const filler: Record<string, string> = { code: 'x', uuid: '0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f', id: '1' };
    let tried = 0;
    for (const [template, methods] of Object.entries(document.paths)) {
      const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
      for (const name of names) {
        const path = template.replace(/\{(\w+)\}/g, (_, other: string) =>
          other === name ? 'a%00b' : (filler[other] ?? 'x'),
        );
        for (const method of Object.keys(methods)) {
          const response = await api[method as 'get' | 'delete' | 'post' | 'put' | 'patch'](path);
          expect({ method, path, status: response.status, body: response.body }).toEqual({
            method,
            path,
            status: 400,
            body: { [name]: [NUL] },
          });
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(40);
  });

  it('an account code with a NUL is refused before anything is read or changed', async () => {
    const { api } = await newOrganization(platform());
    const created = await createAccount(api, 'a');

    for (const response of [
      await api.get('/api/v1/accounts/%00/'),
      await api.patch('/api/v1/accounts/a%00/', { company_name: 'x' }),
      await api.delete('/api/v1/accounts/a%00/'),
    ]) {
      expectStatus(response, 400);
      expect(response.body).toEqual({ code: [NUL] });
    }
    expect((await api.get(accountPath('a'))).body).toEqual(created);
  });
});

describe('query filters', () => {
  it('a NUL in any text filter of any list is 400 naming the filter', async () => {
    const { api } = await newOrganization(platform());
    const document = (await (await fetch(`${platform().baseUrl}/api/schema/`)).json()) as {
      paths: Record<
        string,
        { get?: { parameters?: Array<{ name: string; in: string; schema?: JsonSchema; description?: string }> } }
      >;
    };
    const textFilters = Object.entries(document.paths)
      .filter(([path]) => !path.includes('{'))
      .flatMap(([path, methods]) =>
        (methods.get?.parameters ?? [])
          .filter((p) => p.in === 'query' && p.name !== 'ordering' && p.name !== 'page' && p.name !== 'page_size')
          .filter((p) => types(p.schema ?? {}).includes('string') && !p.schema?.format && !p.schema?.enum)
          .map((p) => ({ path, name: p.name, date: /date/i.test(`${p.description} ${p.schema?.description}`) })),
      );
    const plainText = textFilters.filter((filter) => !filter.date).map(({ path, name }) => `${path}?${name}`);
    expect(plainText).toEqual(
      expect.arrayContaining([
        '/api/v1/accounts/?code',
        '/api/v1/accounts/?search',
        '/api/v1/accounts/?register_status',
        '/api/v1/subscriptions/?account',
        '/api/v1/invoices/?search',
        '/api/v1/invoices/?account',
        '/api/v1/invoices/?account_not',
        '/api/v1/invoices/?import_source',
        '/api/v1/invoicelines/?account',
        '/api/v1/draftinvoicelines/?account',
      ]),
    );
    for (const { path, name, date } of textFilters) {
      const response = await api.get(`${path}?${name}=a%00b`);
      expect({ path, name, status: response.status, body: response.body }).toEqual({
        path,
        name,
        status: 400,
        body: { [name]: [date ? 'Enter a valid date/time.' : NUL] },
      });
    }
  });

  it('a long invalid value is quoted cut to 100 characters', async () => {
    const { api } = await newOrganization(platform());

    const response = await api.get(`${ACCOUNTS}?is_archived=${'x'.repeat(5000)}`);

    expectStatus(response, 400);
    expect(response.body).toEqual({
      is_archived: [`Select a valid choice. ${'x'.repeat(100)}… is not one of the available choices.`],
    });
  });

  it.each([
    ['/api/v1/accounts/?created_date__gte=0001-01-01T00:00:00%2B23:59', 'created_date__gte'],
    ['/api/v1/accounts/?created_date__lte=9999-12-31T23:59:59-23:59', 'created_date__lte'],
    ['/api/v1/subscriptions/?start_date__gte=0001-01-01T00:00:00%2B01:00', 'start_date__gte'],
    ['/api/v1/invoices/?created_date__gte=0001-01-01T00:00:00%2B01:00', 'created_date__gte'],
  ])('%s: an instant outside years 1-9999 is an invalid date/time', async (path, name) => {
    const { api } = await newOrganization(platform());

    const response = await api.get(path);

    expectStatus(response, 400);
    expect(response.body).toEqual({ [name]: ['Enter a valid date/time.'] });
  });

  it.each([
    [
      'accounts, instants at the ends of years 1-9999',
      '/api/v1/accounts/?created_date__gte=0001-01-01T00:00:00Z&created_date__lte=9999-12-31T23:59:59.999Z',
    ],
    [
      'subscriptions, local days 0001-01-01 and 9999-12-31',
      '/api/v1/subscriptions/?start_date__org_tz_gte=0001-01-01&start_date__org_tz_lte=9999-12-31',
    ],
    [
      'subscriptions, UTC days 0001-01-01 and 9999-12-31',
      '/api/v1/subscriptions/?end_date__gte=0001-01-01&next_renewal_date__lte=9999-12-31',
    ],
    ['invoices, dates 0001-01-01 and 9999-12-31', '/api/v1/invoices/?date__gte=0001-01-01&due_date__lte=9999-12-31'],
    ['invoices, 2000-digit amounts', `/api/v1/invoices/?balance=${'9'.repeat(2000)}&total__gt=-${'9'.repeat(2000)}.5`],
    ['accounts, a 2000-digit balance', `/api/v1/accounts/?balance=${'9'.repeat(2000)}`],
    ['accounts, a search of 1000 emoji', `/api/v1/accounts/?search=${'%F0%9F%98%80'.repeat(1000)}`],
  ])('%s: extreme but valid filters answer 200', async (_label, path) => {
    const { api } = await newOrganization(platform());

    const response = await api.get(path);

    expectStatus(response, 200);
  });
});

describe('custom_fields', () => {
  const deepObject = (levels: number): string => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

  /** The writes carrying custom_fields, each with a valid body to put them in. */
  async function carriers(api: ApiClient) {
    const account = await createAccount(api);
    const plan = await api.post('/api/v1/plans/', {
      name: 'P',
      code: uniqueCode('p'),
      collect_vat: true,
      vat_type: 'services',
    });
    const planTerms = await api.post('/api/v1/planterms/', {
      plan: plan.body.uuid,
      code: 'm',
      interval_type: 'month',
      interval_count: 1,
      price: '10.00',
      currency: 'DKK',
      backwards_charging: false,
    });
    return {
      account: {
        path: ACCOUNTS,
        body: (extra: string) => JSON.stringify(accountInput(uniqueCode())).replace(/}$/, extra),
      },
      subscription: {
        path: SUBSCRIPTIONS,
        body: (extra: string) =>
          JSON.stringify({ account: account.code, terms: planTerms.body.uuid, collection_method: 'invoice' }).replace(
            /}$/,
            extra,
          ),
      },
      draftLine: {
        path: DRAFT_LINES,
        body: (extra: string) =>
          JSON.stringify({ account: account.code, description: 'd', vat_type: 'services' }).replace(/}$/, extra),
      },
    };
  }

  it.each([
    ['a NUL in a value', '{"a":"x\\u0000"}', NUL],
    ['a NUL in a key', '{"a\\u0000":"x"}', NUL],
    ['a NUL deep inside', `{"a":[{"b":{"c":["ok","x\\u0000y"]}}]}`, NUL],
    ['a lone surrogate in a value', '{"a":"\\ud800"}', SURROGATE],
    ['a lone surrogate in a key', '{"\\udc00":1}', SURROGATE],
    ['33 levels', deepObject(33), TOO_DEEP],
    ['100,000 levels of arrays', `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`, TOO_DEEP],
    ['more than 64 KiB', `{"a":"${'x'.repeat(65_530)}"}`, TOO_LARGE],
    [
      'a key longer than 256 characters',
      `{"${'k'.repeat(257)}":1}`,
      'Ensure every key has no more than 256 characters.',
    ],
    ['a __proto__ key', '{"__proto__":{"x":1}}', '"__proto__" is not allowed as a key.'],
    ['1e400', '{"a":1e400}', INEXACT],
    ['-1e400', '{"a":[-1e400]}', INEXACT],
    ['2**53+1', '{"a":9007199254740993}', INEXACT],
  ])('%s: 400 naming custom_fields on accounts, subscriptions and draft lines', async (_label, json, message) => {
    const organization = await newOrganization(platform());
    const writes = await carriers(organization.api);
    for (const [name, write] of Object.entries(writes)) {
      const before = (await organization.api.get(write.path)).body.count;

      const response = await sendRaw(organization, 'POST', write.path, write.body(`,"custom_fields":${json}}`));

      expect({ name, status: response.status, body: response.body }).toEqual({
        name,
        status: 400,
        body: { custom_fields: [message] },
      });
      expect((await organization.api.get(write.path)).body.count).toBe(before);
    }
  });

  it('PUT and PATCH refuse them too, changing nothing', async () => {
    const organization = await newOrganization(platform());
    const created = await createAccount(organization.api, 'cf-1', { custom_fields: { kept: true } });

    const put = await sendRaw(
      organization,
      'PUT',
      accountPath('cf-1'),
      JSON.stringify(accountInput('cf-1')).replace(/}$/, `,"custom_fields":${deepObject(40)}}`),
    );
    const patch = await sendRaw(organization, 'PATCH', accountPath('cf-1'), '{"custom_fields":{"a":"\\u0000"}}');

    expectStatus(put, 400);
    expect(put.body).toEqual({ custom_fields: [TOO_DEEP] });
    expectStatus(patch, 400);
    expect(patch.body).toEqual({ custom_fields: [NUL] });
    expect((await organization.api.get(accountPath('cf-1'))).body).toEqual(created);
  });

  it('the deepest and largest allowed custom_fields survive every read, invoices included', async () => {
    const organization = await newOrganization(platform());
    const { api } = organization;
    const deepest = JSON.parse(deepObject(32));
    const key = 'k'.repeat(256);
    // 64 KiB exactly as JSON: {"<key>":"xxx..."} with the filler sized to the byte.
    const filler = 65_536 - JSON.stringify({ [key]: '' }).length;
    const largest = { [key]: 'x'.repeat(filler) };
    expect(Buffer.byteLength(JSON.stringify(largest))).toBe(65_536);
    const odd = {
      '': 'empty key',
      ключ: 'ᚠ👩‍👩‍👧‮e\u0301',
      n: -0,
      big: 9007199254740991,
      f: 1.5e-300,
      g: 0.1,
      z: [null, true, {}],
    };

    const account = await createAccount(api, uniqueCode(), { custom_fields: deepest });
    expect(account.custom_fields).toEqual(deepest);
    platform().clock.advanceSeconds(1);
    const large = await createAccount(api, uniqueCode(), { custom_fields: largest });
    expect(large.custom_fields).toEqual(largest);
    platform().clock.advanceSeconds(1);
    const oddAccount = await createAccount(api, uniqueCode(), { custom_fields: odd });
    expect(oddAccount.custom_fields).toEqual({ ...odd, n: 0 });

    const plan = await api.post('/api/v1/plans/', {
      name: 'P',
      code: uniqueCode('p'),
      collect_vat: true,
      vat_type: 'services',
    });
    const terms = await api.post('/api/v1/planterms/', {
      plan: plan.body.uuid,
      code: 'm',
      interval_type: 'month',
      interval_count: 1,
      price: '10.00',
      currency: 'DKK',
      backwards_charging: false,
    });
    const subscription = await api.post(SUBSCRIPTIONS, {
      account: account.code,
      terms: terms.body.uuid,
      collection_method: 'invoice',
      custom_fields: deepest,
    });
    expectStatus(subscription, 201);
    expect(subscription.body.custom_fields).toEqual(deepest);
    const line = await api.post(DRAFT_LINES, {
      account: large.code,
      description: 'd',
      vat_type: 'services',
      price: '1.00',
      custom_fields: deepest,
    });
    expectStatus(line, 201);

    expect((await api.get(subscriptionPath(subscription.body.uuid))).body.custom_fields).toEqual(deepest);
    expect((await api.get(draftLinePath(line.body.uuid))).body.custom_fields).toEqual(deepest);
    expect((await api.get(`${ACCOUNTS}?ordering=created_date`)).body.results.map((a: Json) => a.custom_fields)).toEqual(
      [deepest, largest, { ...odd, n: 0 }],
    );
    // The account read carries the subscription and the draft line (their custom_fields inside).
    const read = await waitForSets(api, account.code as string, large.code as string);
    expect(read.subscription.custom_fields).toEqual(deepest);
    expect(read.line.custom_fields).toEqual(deepest);
    // Invoiced, the line's custom_fields travel on to the invoice line.
    const [invoice] = (await api.post(generateInvoicePath(large.code as string), {})).body;
    expect(invoice.invoiceline_set.map((l: Json) => l.custom_fields)).toEqual([deepest]);
    expect((await api.get(`${INVOICES}${invoice.uuid}/`)).body.invoiceline_set[0].custom_fields).toEqual(deepest);
  });
});

async function waitForSets(api: ApiClient, subscribed: string, lined: string) {
  for (let attempt = 0; attempt < 200; attempt++) {
    const a = (await api.get(accountPath(subscribed))).body;
    const b = (await api.get(accountPath(lined))).body;
    if (a.subscription_set.length === 1 && b.draftinvoiceline_set.length === 1) {
      return { subscription: a.subscription_set[0], line: b.draftinvoiceline_set[0] };
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the account read model did not show the subscription and the draft line');
}

describe('nesting in any field', () => {
  it.each([
    ['legal_country', 5_000],
    ['legal_country', 300_000],
    ['collection_method', 50_000],
    ['company_name', 33],
  ])('%s given an array nested %i deep is 400 naming the field', async (field, depth) => {
    const organization = await newOrganization(platform());
    const path =
      field === 'collection_method' ? generateInvoicePath((await createAccount(organization.api)).code) : ACCOUNTS;
    const base = field === 'collection_method' ? '{}' : JSON.stringify(accountInput(uniqueCode()));

    const response = await sendRaw(
      organization,
      'POST',
      path,
      base.replace(/}$/, `${base === '{}' ? '' : ','}"${field}":${'['.repeat(depth)}"DK"${']'.repeat(depth)}}`),
    );

    expectStatus(response, 400);
    expect(response.body).toEqual({ [field]: [TOO_DEEP] });
    expect((await organization.api.get(ACCOUNTS)).body.count).toBe(field === 'collection_method' ? 1 : 0);
  });

  it('32 levels are read as a value, and the quoted value is cut', async () => {
    const organization = await newOrganization(platform());
    const nested = `${'['.repeat(32)}"${'x'.repeat(100)}"${']'.repeat(32)}`;

    const response = await sendRaw(
      organization,
      'POST',
      ACCOUNTS,
      JSON.stringify(accountInput(uniqueCode())).replace(/}$/, `,"legal_country":${nested}}`),
    );

    expectStatus(response, 400);
    expect(response.body).toEqual({ legal_country: [`"${nested.slice(0, 100)}…" is not a valid choice.`] });
  });

  it('a list body names the item and its field', async () => {
    const organization = await newOrganization(platform());
    const account = await createAccount(organization.api);
    const deep = `${'['.repeat(40)}1${']'.repeat(40)}`;

    const response = await sendRaw(
      organization,
      'POST',
      `${accountPath(account.code)}payment-gateways/`,
      `[{"payment_gateway":"noop","payment_gateway_account_id":"a"},{"payment_gateway":${deep},"payment_gateway_account_id":"b"},${deep}]`,
    );

    expectStatus(response, 400);
    expect(response.body).toEqual([{}, { payment_gateway: [TOO_DEEP] }, { non_field_errors: [TOO_DEEP] }]);
    expect((await organization.api.get(`${accountPath(account.code)}payment-gateways/`)).body).toEqual([]);
  });
});

describe('choices quote at most 100 characters of the input', () => {
  it.each([
    ['a long string', JSON.stringify('x'.repeat(200_000)), `"${'x'.repeat(100)}…" is not a valid choice.`],
    [
      'a long list',
      JSON.stringify(Array.from({ length: 50_000 }, (_, i) => i)),
      `"${JSON.stringify(Array.from({ length: 50_000 }, (_, i) => i)).slice(0, 100)}…" is not a valid choice.`,
    ],
    ['an emoji at the cut', JSON.stringify(`${'x'.repeat(99)}😀😀`), `"${'x'.repeat(99)}…" is not a valid choice.`],
  ])('%s', async (_label, value, message) => {
    const organization = await newOrganization(platform());

    const response = await sendRaw(
      organization,
      'POST',
      ACCOUNTS,
      JSON.stringify(accountInput(uniqueCode())).replace(/}$/, `,"title":${value}}`),
    );

    expectStatus(response, 400);
    expect(response.body).toEqual({ title: [message] });
    expect(response.text.length).toBeLessThan(300);
  });
});

describe('text without a limit in the contract', () => {
  it.each([
    [ACCOUNTS, 'legal_address'],
    [ACCOUNTS, 'billing_address'],
    ['/api/v1/plans/', 'description'],
    [DRAFT_LINES, 'description'],
    [DRAFT_LINES, 'invoice_supplement'],
    [SUBSCRIPTIONS, 'invoice_supplement'],
  ])('%s %s takes at most 5,000 characters', async (path, field) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const plan = await api.post('/api/v1/plans/', {
      name: 'P',
      code: uniqueCode('p'),
      collect_vat: true,
      vat_type: 'services',
    });
    const terms = await api.post('/api/v1/planterms/', {
      plan: plan.body.uuid,
      code: 'm',
      interval_type: 'month',
      interval_count: 1,
      price: '10.00',
      currency: 'DKK',
      backwards_charging: false,
    });
    const body = (value: string): Json =>
      ({
        [ACCOUNTS]: accountInput(uniqueCode(), { [field]: value }),
        '/api/v1/plans/': { name: 'P', code: uniqueCode('p'), collect_vat: true, vat_type: 'services', [field]: value },
        [DRAFT_LINES]: { account: account.code, description: 'd', vat_type: 'services', [field]: value },
        [SUBSCRIPTIONS]: {
          account: account.code,
          terms: terms.body.uuid,
          collection_method: 'invoice',
          [field]: value,
        },
      })[path]!;
    const before = (await api.get(path)).body.count;

    const refused = await api.post(path, body('é'.repeat(5001)));
    expectStatus(refused, 400);
    expect(refused.body).toEqual({ [field]: ['Ensure this field has no more than 5000 characters.'] });
    expect((await api.get(path)).body.count).toBe(before);

    const accepted = await api.post(path, body('é'.repeat(5000)));
    expectStatus(accepted, 201);
    expect(accepted.body[field]).toBe('é'.repeat(5000));
  });
});

describe('numbers', () => {
  it.each([
    ['default_payment_terms', '1e400', 'A valid integer is required.'],
    ['default_payment_terms', '-1e400', 'A valid integer is required.'],
    ['default_payment_terms', '2147483648', 'Ensure this value is less than or equal to 2147483647.'],
    ['partner', '9007199254740993', 'Ensure this value is less than or equal to 9007199254740991.'],
    ['partner', '"1e3"', 'A valid integer is required.'],
    ['company_name', '1e400', 'Not a valid string.'],
  ])('account %s=%s is 400 naming it', async (field, json, message) => {
    const organization = await newOrganization(platform());

    const response = await sendRaw(
      organization,
      'POST',
      ACCOUNTS,
      JSON.stringify(accountInput(uniqueCode())).replace(/}$/, `,"${field}":${json}}`),
    );

    expectStatus(response, 400);
    expect(response.body).toEqual({ [field]: [message] });
    expect((await organization.api.get(ACCOUNTS)).body.count).toBe(0);
  });

  it('"-0" and -0 are zero', async () => {
    const organization = await newOrganization(platform());
    const code = uniqueCode();

    const response = await sendRaw(
      organization,
      'POST',
      ACCOUNTS,
      JSON.stringify(accountInput(code)).replace(/}$/, ',"partner":"-0","default_payment_terms":-0}'),
    );

    expectStatus(response, 201);
    expect([response.body.partner, response.body.default_payment_terms]).toEqual([0, 0]);
  });

  it.each([
    ['1e400', '1e400', 'A valid number is required.'],
    ['"1e400"', '"1e400"', 'A valid number is required.'],
    ['"NaN"', '"NaN"', 'A valid number is required.'],
    ['"Infinity"', '"Infinity"', 'A valid number is required.'],
    ['5000 digits', `"${'9'.repeat(5000)}"`, 'Ensure that there are no more than 20 digits in total.'],
  ])('a draft line price of %s is 400 naming it', async (_label, json, message) => {
    const organization = await newOrganization(platform());
    const account = await createAccount(organization.api);

    const response = await sendRaw(
      organization,
      'POST',
      DRAFT_LINES,
      `{"account":"${account.code}","description":"d","vat_type":"services","price":${json}}`,
    );

    expectStatus(response, 400);
    expect(response.body).toEqual({ price: [message] });
  });
});

describe('request bytes', () => {
  it('a body that is not UTF-8 is a JSON parse error, not text with U+FFFD', async () => {
    const organization = await newOrganization(platform());
    const body = Buffer.concat([
      Buffer.from(JSON.stringify(accountInput(uniqueCode())).replace(/}$/, ',"company_name":"a')),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}'),
    ]);

    const response = await sendRaw(organization, 'POST', ACCOUNTS, body);

    expectStatus(response, 400);
    expect(response.body).toEqual({ detail: 'JSON parse error - Invalid UTF-8 in the request body.' });
    expect((await organization.api.get(ACCOUNTS)).body.count).toBe(0);
  });

  it('odd but valid text is stored and returned as sent: RTL marks, combining marks, emoji, BOM', async () => {
    const { api } = await newOrganization(platform());
    const odd = '\u202eabc\u0301 👩‍👩‍👧 \ufeff\u200d ᚠ';

    const account = await createAccount(api, uniqueCode(), { company_name: odd, legal_address: odd });

    expect([account.company_name, account.legal_address]).toEqual([odd, odd]);
    expect((await api.get(accountPath(account.code))).body.company_name).toBe(odd);
  });
});

describe('datetimes in bodies', () => {
  it.each([
    ['0001-01-01T00:00:00+00:01', 'Datetime value out of range.'],
    ['9999-12-31T23:59:59-00:01', 'Datetime value out of range.'],
    [
      '10000-01-01T00:00:00Z',
      'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
    ],
  ])('start_date %s is 400 naming it', async (value, message) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);

    const response = await api.post(SUBSCRIPTIONS, {
      account: account.code,
      terms: '0b6f0f5e-8a4e-4c1e-9a55-3f3f3f3f3f3f',
      collection_method: 'invoice',
      start_date: value,
    });

    expectStatus(response, 400);
    expect(response.body).toEqual({ start_date: [message] });
  });
});

describe('backdated start dates', () => {
  const TOO_FAR = 'Ensure this date is no more than 36 billing periods of the plan terms before now.';

  async function termsOf(api: ApiClient, interval_type: string) {
    const plan = await api.post('/api/v1/plans/', {
      name: 'P',
      code: uniqueCode('p'),
      collect_vat: true,
      vat_type: 'services',
    });
    const terms = await api.post('/api/v1/planterms/', {
      plan: plan.body.uuid,
      code: interval_type,
      interval_type,
      interval_count: 1,
      price: '10.00',
      currency: 'DKK',
      backwards_charging: false,
    });
    expectStatus(terms, 201);
    return terms.body as Json & { uuid: string };
  }

  it.each([
    ['month', '0001-01-01T00:00:00Z'],
    ['month', '2023-01-15T08:59:59Z'],
    ['day', '2025-12-01T00:00:00Z'],
  ])('a %s plan started at %s is refused at once, creating nothing', async (interval, start) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const terms = await termsOf(api, interval);
    const startedAt = Date.now();

    const response = await api.post(SUBSCRIPTIONS, {
      account: account.code,
      terms: terms.uuid,
      collection_method: 'invoice',
      start_date: start,
    });

    expectStatus(response, 400);
    expect(response.body).toEqual({ start_date: [TOO_FAR] });
    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect((await api.get(SUBSCRIPTIONS)).body.count).toBe(0);
  });

  it('a scheduled subscription cannot be moved that far back either', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const terms = await termsOf(api, 'month');
    const created = await api.post(SUBSCRIPTIONS, {
      account: account.code,
      terms: terms.uuid,
      collection_method: 'invoice',
      start_date: '2027-01-01T00:00:00Z',
    });
    expectStatus(created, 201);

    const response = await api.patch(subscriptionPath(created.body.uuid), { start_date: '1900-01-01T00:00:00Z' });

    expectStatus(response, 400);
    expect(response.body).toEqual({ start_date: [TOO_FAR] });
    expect((await api.get(subscriptionPath(created.body.uuid))).body).toEqual(created.body);
  });

  it('36 monthly periods back is accepted and caught up', async () => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const terms = await termsOf(api, 'month');
    // 36 months before the platform's now (other tests here move it on by seconds), same time of day.
    const now = platform().clock.now();
    const monthsFromNow = (months: number) => {
      const instant = new Date(now);
      instant.setUTCMonth(instant.getUTCMonth() + months);
      return instant.toISOString();
    };

    const response = await api.post(SUBSCRIPTIONS, {
      account: account.code,
      terms: terms.uuid,
      collection_method: 'invoice',
      start_date: monthsFromNow(-36),
    });

    expectStatus(response, 201);
    expect([response.body.status, response.body.next_renewal_date]).toEqual(['active', monthsFromNow(1)]);
  });
});

describe('lengths count characters (code points), as DRF does: an emoji is one', () => {
  it.each([
    ['a subscription po_number', 128],
    ['a draft line reference_person', 128],
    ['a churn reason name', 100],
    ['an account first_name', 128],
  ])('%s of %i emoji is accepted, one more is refused', async (label, max) => {
    const { api } = await newOrganization(platform());
    const account = await createAccount(api);
    const plan = await api.post('/api/v1/plans/', {
      name: 'P',
      code: uniqueCode('p'),
      collect_vat: true,
      vat_type: 'services',
    });
    const terms = await api.post('/api/v1/planterms/', {
      plan: plan.body.uuid,
      code: 'm',
      interval_type: 'month',
      interval_count: 1,
      price: '10.00',
      currency: 'DKK',
      backwards_charging: false,
    });
    const writes: Record<string, [string, string, (value: string) => Json]> = {
      'a subscription po_number': [
        SUBSCRIPTIONS,
        'po_number',
        (value) => ({ account: account.code, terms: terms.body.uuid, collection_method: 'invoice', po_number: value }),
      ],
      'a draft line reference_person': [
        DRAFT_LINES,
        'reference_person',
        (value) => ({ account: account.code, description: 'd', vat_type: 'services', reference_person: value }),
      ],
      'a churn reason name': ['/api/v1/churn-reasons/', 'name', (value) => ({ name: value })],
      'an account first_name': [ACCOUNTS, 'first_name', (value) => accountInput(uniqueCode(), { first_name: value })],
    };
    const [path, field, body] = writes[label]!;

    const accepted = await api.post(path, body('😀'.repeat(max)));
    expectStatus(accepted, 201);
    expect(accepted.body[field]).toBe('😀'.repeat(max));

    const refused = await api.post(path, body('😀'.repeat(max + 1)));
    expectStatus(refused, 400);
    expect(refused.body).toEqual({ [field]: [`Ensure this field has no more than ${max} characters.`] });
  });
});
