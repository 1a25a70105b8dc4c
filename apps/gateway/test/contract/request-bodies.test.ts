/**
 * Request bodies (gaps §1): media type (415), malformed JSON (400 "JSON parse error ..."), size
 * limit of 1 MiB (413).
 */
import { describe, expect, it } from 'vitest';
import type { TestOrganization } from '../support/platform.js';
import {
  ACCOUNTS,
  accountInput,
  accountPath,
  createAccount,
  expectStatus,
  newOrganization,
  usePlatform,
} from './helpers.js';

const platform = usePlatform();

function send(organization: TestOrganization, method: string, path: string, body: string, contentType?: string) {
  const headers: Record<string, string> = {
    Authorization: `Token ${organization.token}`,
    'X-Client-System': 'contract-tests',
  };
  if (contentType) headers['Content-Type'] = contentType;
  return organization.api.raw(path, { method, headers, body });
}

describe('media type', () => {
  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'POST with Content-Type %s is 415',
    async (contentType) => {
      const organization = await newOrganization(platform());

      const response = await send(organization, 'POST', ACCOUNTS, JSON.stringify(accountInput('m-1')), contentType);

      expectStatus(response, 415);
      expect(response.body).toEqual({ detail: expect.any(String) });
      expect((await organization.api.get(ACCOUNTS)).body.count).toBe(0);
    },
  );

  it('PATCH with a non-JSON Content-Type is 415 and changes nothing', async () => {
    const organization = await newOrganization(platform());
    const created = await createAccount(organization.api, 'm-2');

    const response = await send(
      organization,
      'PATCH',
      accountPath('m-2'),
      JSON.stringify({ company_name: 'x' }),
      'text/plain',
    );

    expectStatus(response, 415);
    expect(response.body).toEqual({ detail: expect.any(String) });
    expect((await organization.api.get(accountPath('m-2'))).body).toEqual(created);
  });

  it('accepts application/json with a charset parameter', async () => {
    const organization = await newOrganization(platform());

    const response = await send(
      organization,
      'POST',
      ACCOUNTS,
      JSON.stringify(accountInput('m-3')),
      'application/json; charset=utf-8',
    );

    expectStatus(response, 201);
    expect(response.body.code).toBe('m-3');
  });
});

describe('malformed JSON', () => {
  it.each([
    ['a truncated object', '{"code": "x", '],
    ['single quotes', "{'code': 'x'}"],
    ['a trailing comma', '{"code": "x",}'],
  ])('%s is 400 JSON parse error', async (_label, body) => {
    const organization = await newOrganization(platform());

    const response = await send(organization, 'POST', ACCOUNTS, body, 'application/json');

    expectStatus(response, 400);
    expect(Object.keys(response.body)).toEqual(['detail']);
    expect(response.body.detail).toMatch(/^JSON parse error/);
  });
});

describe('size limit', () => {
  it('a body over 1 MiB is 413', async () => {
    const organization = await newOrganization(platform());
    const body = JSON.stringify(accountInput('big-1', { padding: 'a'.repeat(1024 * 1024 + 1) }));

    const response = await send(organization, 'POST', ACCOUNTS, body, 'application/json');

    expectStatus(response, 413);
    expect(response.body).toEqual({ detail: expect.any(String) });
    expect((await organization.api.get(ACCOUNTS)).body.count).toBe(0);
  });

  it('a body just under 1 MiB is processed', async () => {
    const organization = await newOrganization(platform());
    // Unknown fields are ignored, so the padding makes the request big without making the account big.
    const base = JSON.stringify(accountInput('big-2', { padding: '' }));
    const body = JSON.stringify(accountInput('big-2', { padding: 'a'.repeat(1024 * 1024 - base.length - 16) }));
    expect(Buffer.byteLength(body)).toBeLessThan(1024 * 1024);
    expect(Buffer.byteLength(body)).toBeGreaterThan(1024 * 1024 - 64);

    const response = await send(organization, 'POST', ACCOUNTS, body, 'application/json');

    expectStatus(response, 201);
    expect(response.body.code).toBe('big-2');
  });
});
