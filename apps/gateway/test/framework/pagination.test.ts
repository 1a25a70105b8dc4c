import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWidgetApp, type WidgetApp } from './support/widget-app.js';
import type { WidgetStore } from './support/widget-routes.js';

interface Envelope {
  count: number;
  next: string | null;
  previous: string | null;
  results: Array<{ name: string }>;
}

const WIDGETS = '/api/v1/widgets/';

function fill(store: WidgetStore, count: number): void {
  for (let index = 1; index <= count; index++) {
    const n = String(index).padStart(3, '0');
    store.add({
      uuid: `00000000-0000-4000-8000-000000000${n}`,
      name: `w-${n}`,
      color: index % 2 === 0 ? 'red' : 'green',
      created_date: `2026-01-01T00:${String(index % 60).padStart(2, '0')}:00.000Z`,
    });
  }
}

describe('pagination', () => {
  let app: WidgetApp;
  const list = async (query: string) => {
    const response = await app.request('GET', `${WIDGETS}${query}`);
    return { ...response, envelope: response.body as Envelope };
  };

  beforeAll(async () => {
    app = await startWidgetApp();
    fill(app.store, 205);
  });
  afterAll(() => app.close());

  it('serves 20 per page by default with an absolute next link', async () => {
    const { status, envelope } = await list('');

    expect(status).toBe(200);
    expect(envelope.count).toBe(205);
    expect(envelope.results).toHaveLength(20);
    expect(envelope.results[0]?.name).toBe('w-001');
    expect(envelope.next).toBe(`${app.url}${WIDGETS}?page=2`);
    expect(envelope.previous).toBeNull();
  });

  it('keeps every filter in next and previous, sorted as DRF sorts them', async () => {
    const { envelope } = await list('?page_size=10&color=red&page=3&ordering=-name');

    expect(envelope.count).toBe(102);
    expect(envelope.results.map((widget) => widget.name).slice(0, 2)).toEqual(['w-164', 'w-162']);
    expect(envelope.next).toBe(`${app.url}${WIDGETS}?color=red&ordering=-name&page=4&page_size=10`);
    expect(envelope.previous).toBe(`${app.url}${WIDGETS}?color=red&ordering=-name&page=2&page_size=10`);
  });

  it('drops page from the previous link of page 2, as DRF does', async () => {
    const { envelope } = await list('?page=2&color=green');

    expect(envelope.previous).toBe(`${app.url}${WIDGETS}?color=green`);
  });

  it('keeps repeated parameters and encoding in the links', async () => {
    const { envelope } = await list('?name=&color=red&color=red&page_size=50');

    expect(envelope.next).toBe(`${app.url}${WIDGETS}?color=red&color=red&name=&page=2&page_size=50`);
  });

  it('clamps page_size to 100', async () => {
    const { envelope } = await list('?page_size=500');

    expect(envelope.results).toHaveLength(100);
    expect(envelope.next).toBe(`${app.url}${WIDGETS}?page=2&page_size=500`);
  });

  it.each(['0', '-1', 'abc', ''])('falls back to 20 for page_size=%s', async (size) => {
    const { status, envelope } = await list(`?page_size=${size}`);

    expect(status).toBe(200);
    expect(envelope.results).toHaveLength(20);
  });

  it('has no next on the last page', async () => {
    const { envelope } = await list('?page=11');

    expect(envelope.results.map((widget) => widget.name)).toEqual(['w-201', 'w-202', 'w-203', 'w-204', 'w-205']);
    expect(envelope.next).toBeNull();
    expect(envelope.previous).toBe(`${app.url}${WIDGETS}?page=10`);
  });

  it.each(['12', '0', '-1', 'abc', '', '1.5', '99999999999'])(
    'answers page=%s with 404 Invalid page.',
    async (page) => {
      const { status, body } = await list(`?page=${page}`);

      expect(status).toBe(404);
      expect(body).toEqual({ detail: 'Invalid page.' });
    },
  );

  it('serves page 1 of an empty result', async () => {
    const { status, body } = await list('?name=nothing');

    expect(status).toBe(200);
    expect(body).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('orders by whitelisted fields and ignores the others, as DRF OrderingFilter', async () => {
    const descending = await list('?ordering=-name&page_size=2');
    const unknown = await list('?ordering=color&page_size=2');
    const mixed = await list('?ordering=color,-name&page_size=2');

    expect(descending.envelope.results.map((widget) => widget.name)).toEqual(['w-205', 'w-204']);
    expect(unknown.envelope.results.map((widget) => widget.name)).toEqual(['w-001', 'w-002']);
    expect(mixed.envelope.results.map((widget) => widget.name)).toEqual(['w-205', 'w-204']);
  });
});

describe('absolute URLs behind a proxy', () => {
  const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.com' };

  it('ignore X-Forwarded-* unless trustProxy is on', async () => {
    const app = await startWidgetApp();
    try {
      fill(app.store, 25);
      const response = await app.request('GET', `${WIDGETS}?color=red`, { headers: forwarded });
      expect((response.body as Envelope).next).toBeNull();
      const all = await app.request('GET', WIDGETS, { headers: forwarded });
      expect((all.body as Envelope).next).toBe(`${app.url}${WIDGETS}?page=2`);
    } finally {
      await app.close();
    }
  });

  it('use X-Forwarded-Proto and -Host when trustProxy is on', async () => {
    const app = await startWidgetApp({ trustProxy: 'loopback' });
    try {
      fill(app.store, 25);
      const response = await app.request('GET', `${WIDGETS}?page_size=10&page=2`, { headers: forwarded });
      expect(response.body).toMatchObject({
        next: `https://api.example.com${WIDGETS}?page=3&page_size=10`,
        previous: `https://api.example.com${WIDGETS}?page_size=10`,
      });
    } finally {
      await app.close();
    }
  });
});
