import type { Request, RequestHandler } from 'express';
import { describe, expect, it } from 'vitest';
import { parsePathTemplate } from './route-path.js';
import { decodeParams, type PathEntry, RouteTable } from './route-table.js';

const noop: RequestHandler = () => {};
const entry = (template: string): PathEntry => ({
  template: parsePathTemplate(template),
  byMethod: new Map([['GET', noop]]),
  otherMethods: noop,
});

function tableOf(...templates: string[]): RouteTable {
  const table = new RouteTable();
  for (const template of templates) table.add(entry(template));
  return table;
}

/** The template that matched, whether the slash was there, and the raw parameter values. */
function match(table: RouteTable, path: string) {
  const found = table.match(path);
  return found && { template: found.entry.template.template, slash: found.slash, rawParams: found.rawParams };
}

describe('RouteTable', () => {
  const table = tableOf(
    '/api/v1/accounts/',
    '/api/v1/accounts/{code}/',
    '/api/v1/accounts/{code}/payment-gateways/',
    '/api/v1/invoices/available-vat-billing-periods/',
    '/api/v1/invoices/{uuid}/',
    '/api/v1/a/b/d/',
    '/api/v1/a/{x}/c/',
  );

  it('matches literal paths and takes one segment per parameter, still encoded', () => {
    expect(match(table, '/api/v1/accounts/')).toEqual({ template: '/api/v1/accounts/', slash: true, rawParams: [] });
    expect(match(table, '/api/v1/accounts/A%2F1/payment-gateways/')).toEqual({
      template: '/api/v1/accounts/{code}/payment-gateways/',
      slash: true,
      rawParams: ['A%2F1'],
    });
  });

  it('reports a known path without its trailing slash, for the slash rule', () => {
    expect(match(table, '/api/v1/accounts/A-1')).toEqual({
      template: '/api/v1/accounts/{code}/',
      slash: false,
      rawParams: ['A-1'],
    });
  });

  it('prefers a literal segment over a parameter, and falls back to the parameter when the literal leads nowhere', () => {
    expect(match(table, '/api/v1/invoices/available-vat-billing-periods/')?.template).toBe(
      '/api/v1/invoices/available-vat-billing-periods/',
    );
    expect(match(table, '/api/v1/a/b/d/')?.template).toBe('/api/v1/a/b/d/');
    expect(match(table, '/api/v1/a/b/c/')).toEqual({ template: '/api/v1/a/{x}/c/', slash: true, rawParams: ['b'] });
  });

  it('matches nothing else: other case, empty or extra segments, the root', () => {
    for (const path of [
      '/api/v1/Accounts/',
      '/api/v1/accounts//',
      '/api/v1/accounts/A-1/x/',
      '/',
      '',
      'api/v1/accounts/',
    ]) {
      expect(match(table, path)).toBeUndefined();
    }
  });

  it('refuses two templates for the same URLs', () => {
    expect(() => tableOf('/api/v1/accounts/{code}/', '/api/v1/accounts/{code}/')).toThrow(
      'Paths /api/v1/accounts/{code}/ and /api/v1/accounts/{code}/ collide',
    );
  });

  it('decodes parameters into req.params by the template names, and fails a broken escape as express does', () => {
    const req = {} as Request;
    const found = table.match('/api/v1/accounts/J%C3%B6rg%20%26%20Co/payment-gateways/')!;
    decodeParams(req, found.entry, found.rawParams);
    expect(req.params).toEqual({ code: 'Jörg & Co' });

    const broken = table.match('/api/v1/accounts/%E0%A4%A/')!;
    const error = (() => {
      try {
        decodeParams(req, broken.entry, broken.rawParams);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(URIError);
    expect(error).toMatchObject({ status: 400, message: "Failed to decode param '%E0%A4%A'" });
  });
});
