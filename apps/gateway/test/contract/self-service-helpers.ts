import { expect } from 'vitest';
import type { ApiClient, ApiResponse } from '../support/api-client.js';
import { createRecipient, expectStatus, type Json } from './helpers.js';
import { invoiceFixture, subscribeAndInvoice } from './invoices-helpers.js';

export const INITIATE = '/api/self-service/initiate-organization/';
export const NO_ACCESS = 'No recipient with this e-mail has access to self-service.';
export const SIGN_IN_URL = /^http:\/\/127\.0\.0\.1:\d+\/self-service\/sign-in\/[A-Za-z0-9_-]{43}\/$/;

/** POST initiate-organization/ for `email`, expecting a URL; returns it. */
export async function selfServiceLink(api: ApiClient, email: string): Promise<string> {
  const response = await api.post(INITIATE, { email });
  expectStatus(response, 200);
  expect(response.body).toEqual({ url: expect.stringMatching(SIGN_IN_URL) });
  return response.body.url as string;
}

/**
 * A customer: an account (Acme ApS) with a recipient, a 100.00 DKK monthly subscription with its
 * first invoice (125.00 DKK with VAT) and the API's view of both.
 */
export async function customerFixture(api: ApiClient, email: string, account: Json = {}) {
  const fixture = await invoiceFixture(api, { account, plan: { name: 'Pro' } });
  await createRecipient(api, fixture.account.uuid as string, { email });
  const { subscription, invoice } = await subscribeAndInvoice(api, fixture);
  return { ...fixture, subscription, invoice };
}

/** A browser's cookie jar for the self-service cookie: follows no redirect by itself. */
export class SelfServiceClient {
  private cookie = '';
  constructor(private readonly baseUrl: string) {}

  async request(url: string, init: RequestInit = {}): Promise<ApiResponse> {
    const absolute = url.startsWith('http') ? url : `${this.baseUrl}${url}`;
    const headers = new Headers(init.headers);
    if (this.cookie) headers.set('Cookie', this.cookie);
    const response = await fetch(absolute, { redirect: 'manual', ...init, headers });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const [pair] = setCookie.split(';');
      this.cookie = pair!.endsWith('=') ? '' : pair!;
    }
    const type = response.headers.get('content-type') ?? '';
    const binary = type.startsWith('application/pdf');
    const bytes = Buffer.from(await response.arrayBuffer());
    return {
      status: response.status,
      headers: response.headers,
      body: binary ? bytes : null,
      text: binary ? '' : bytes.toString('utf8'),
    };
  }

  get(url: string): Promise<ApiResponse> {
    return this.request(url);
  }

  /** A form POST as this site's page sends it (Origin ours unless told). */
  post(url: string, form: Record<string, string> = {}, origin = this.baseUrl): Promise<ApiResponse> {
    return this.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: origin },
      body: new URLSearchParams(form).toString(),
    });
  }

  /** Opens the link and signs in; returns where the sign-in sent the browser. */
  async signIn(link: string): Promise<string> {
    const page = await this.get(link);
    expectStatus(page, 200);
    const signedIn = await this.post(link);
    expectStatus(signedIn, 303);
    return signedIn.headers.get('location')!;
  }

  get hasCookie(): boolean {
    return this.cookie !== '';
  }
}

const decode = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The text of each body row's cells of the table with `id`, as a person reads it. */
export function tableRows(html: string, id: string): string[][] {
  const table = new RegExp(`<table id="${id}">([\\s\\S]*?)</table>`).exec(html);
  if (!table) return [];
  const body = /<tbody>([\s\S]*)<\/tbody>/.exec(table[1]!)![1]!;
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => decode(cell[1]!)),
  );
}

/** The page's `<h1>` and its first paragraph's text. */
export function headline(html: string): { lang: string; h1: string; message: string } {
  return {
    lang: /<html lang="([a-z]+)">/.exec(html)?.[1] ?? '',
    h1: decode(/<h1>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? ''),
    message: decode(/<main>[\s\S]*?<p[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? ''),
  };
}
