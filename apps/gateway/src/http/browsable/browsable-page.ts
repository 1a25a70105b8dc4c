import { STATUS_CODES } from 'node:http';
import type { z } from 'zod';
import type { Route } from '../route/route-types.js';
import { escapeHtml, link } from './html.js';
import { jsonToHtml, type LinkFor } from './json-html.js';

export const SIGN_IN_PATH = '/api/browsable/sign-in/';
export const SIGN_OUT_PATH = '/api/browsable/sign-out/';

/** What one page shows: the answer a JSON client would get, and where it was asked. */
export interface PageContent {
  status: number;
  body: unknown;
  method: string;
  /** The path and query as requested (`/api/v1/accounts/?page=2`). */
  requestUrl: string;
  /** Where signing in or out returns to (this page, unless it answers a sign-in). */
  returnTo: string;
  path: string;
  query: Record<string, unknown>;
  /** The route that answered, when one did (its summary, filters and ordering shape the page). */
  route?: Route | undefined;
  /** Whether the browser holds a session cookie (then the page offers to sign out). */
  signedIn: boolean;
  linkFor?: LinkFor | undefined;
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header { display: flex; gap: 1rem; align-items: center; justify-content: space-between; flex-wrap: wrap;
  padding: .6rem 1.5rem; background: #24292f; color: #fff; }
header a { color: #fff; font-weight: 600; text-decoration: none; }
header form { display: flex; gap: .5rem; align-items: center; margin: 0; }
main { padding: 1rem 1.5rem; max-width: 72rem; }
h1 { font-size: 1.4rem; margin: .3rem 0 .8rem; }
.request { font-family: ui-monospace, monospace; margin: 0 0 .5rem; }
pre { background: #fff; border: 1px solid #d0d7de; border-radius: 6px; padding: 1rem; overflow-x: auto;
  font: 13px/1.5 ui-monospace, monospace; }
.key { color: #0550ae; } .string { color: #0a3069; } .number, .boolean, .null { color: #953800; }
fieldset { border: 1px solid #d0d7de; border-radius: 6px; background: #fff; margin: 0 0 1rem; }
fieldset label { display: inline-flex; flex-direction: column; margin: 0 1rem .5rem 0; font-size: 13px; }
nav.pages { display: flex; gap: 1rem; margin: .5rem 0; }
`;

/** The whole HTML page for an answer. */
export function renderPage(content: PageContent): string {
  const statusLine = `HTTP ${content.status} ${STATUS_CODES[content.status] ?? ''}`.trim();
  const title = content.route?.summary ?? (STATUS_CODES[content.status] || 'Billing API');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)} – Billing API</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    `<header>${link('/api/v1/', 'Billing API')}${sessionForm(content)}</header>`,
    '<main>',
    `<h1>${escapeHtml(title)}</h1>`,
    `<p class="request">${escapeHtml(`${content.method} ${content.requestUrl}`)}</p>`,
    content.route?.list ? filterForm(content.path, content.query, content.route) : '',
    pageLinks(content.body),
    `<pre class="response"><b>${escapeHtml(statusLine)}</b>\nContent-Type: application/json\n\n${jsonToHtml(content.body, content.linkFor)}</pre>`,
    pageLinks(content.body),
    '</main>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** Sign in with a token (kept in a session cookie), or sign out; either returns to this page. */
function sessionForm(content: PageContent): string {
  const next = `<input type="hidden" name="next" value="${escapeHtml(content.returnTo)}">`;
  if (content.signedIn && content.status !== 401) {
    return `<form method="post" action="${SIGN_OUT_PATH}">${next}<span>Signed in (read only)</span><button type="submit">Sign out</button></form>`;
  }
  return (
    `<form method="post" action="${SIGN_IN_PATH}">${next}` +
    '<label for="token">API token</label>' +
    '<input id="token" name="token" type="password" autocomplete="off" required size="32">' +
    '<button type="submit">Sign in</button></form>'
  );
}

/** The list's next and previous links, when the answer is a page of one. */
function pageLinks(body: unknown): string {
  if (body === null || typeof body !== 'object' || !('results' in body)) return '';
  const { next, previous } = body as { next?: unknown; previous?: unknown };
  const parts = [
    typeof previous === 'string' ? link(previous, '« Previous page') : '',
    typeof next === 'string' ? link(next, 'Next page »') : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? `<nav class="pages">${parts.join('')}</nav>` : '';
}

function lastValue(value: unknown): string {
  if (Array.isArray(value)) return lastValue(value.at(-1));
  return typeof value === 'string' ? value : '';
}

function select(name: string, options: readonly string[], current: string): string {
  const choices = ['', ...options]
    .map(
      (option) =>
        `<option value="${escapeHtml(option)}"${option === current ? ' selected' : ''}>${escapeHtml(option || '—')}</option>`,
    )
    .join('');
  return `<select id="filter-${escapeHtml(name)}" name="${escapeHtml(name)}">${choices}</select>`;
}

/** One control per filter: a choice list for booleans and closed sets, a text box for the rest. */
function filterControl(name: string, schema: z.ZodType, current: string): string {
  const meta = (schema.meta?.() ?? {}) as { type?: string; enum?: string[]; format?: string };
  if (meta.type === 'boolean') return select(name, ['true', 'false'], current);
  if (Array.isArray(meta.enum)) return select(name, meta.enum, current);
  const placeholder = meta.format === 'date' ? 'YYYY-MM-DD' : meta.format === 'date-time' ? 'YYYY-MM-DDTHH:MM:SSZ' : '';
  return `<input id="filter-${escapeHtml(name)}" name="${escapeHtml(name)}" value="${escapeHtml(current)}" placeholder="${placeholder}">`;
}

/** The list's filters, ordering and page size as a GET form on the list's own path. */
function filterForm(path: string, query: Record<string, unknown>, route: Route): string {
  const list = route.list!;
  const shape = (route.query?.shape ?? {}) as Record<string, z.ZodType>;
  const controls = Object.entries(shape).map(([name, schema]) =>
    labelled(name, filterControl(name, schema, lastValue(query[name]))),
  );
  if (list.ordering.length > 0) {
    const orderings = list.ordering.flatMap((field) => [field, `-${field}`]);
    controls.push(labelled('ordering', select('ordering', orderings, lastValue(query.ordering))));
  }
  controls.push(
    labelled(
      'page_size',
      `<input id="filter-page_size" name="page_size" type="number" min="1" max="100" value="${escapeHtml(lastValue(query.page_size))}">`,
    ),
  );
  return (
    `<form class="filters" method="get" action="${escapeHtml(path)}"><fieldset><legend>Filters</legend>` +
    `${controls.join('')}<button type="submit">Filter</button></fieldset></form>`
  );
}

function labelled(name: string, control: string): string {
  return `<label for="filter-${escapeHtml(name)}">${escapeHtml(name)}${control}</label>`;
}
