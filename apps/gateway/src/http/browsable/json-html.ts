import { escapeHtml, isSafeHref, link } from './html.js';

/**
 * A link for a value at a place in the body, or undefined: `path` is the keys and indexes from
 * the body's root to the value (`['results', 0, 'code']`).
 */
export type LinkFor = (path: readonly (string | number)[], value: string) => string | undefined;

const INDENT = '    ';

/**
 * The body as pretty-printed JSON in HTML (four-space indent, as DRF's browsable API): every key
 * and value escaped, string values that are URLs (http(s) or a path) and values `linkFor` names
 * made links. The text of the page is the JSON the API answers, character for character.
 */
export function jsonToHtml(body: unknown, linkFor: LinkFor = () => undefined): string {
  return render(body, [], '', linkFor);
}

function render(value: unknown, path: (string | number)[], indent: string, linkFor: LinkFor): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = indent + INDENT;
    const items = value.map((item, index) => inner + render(item, [...path, index], inner, linkFor));
    return `[\n${items.join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, member]) => member !== undefined);
    if (entries.length === 0) return '{}';
    const inner = indent + INDENT;
    const members = entries.map(
      ([key, member]) =>
        `${inner}<span class="key">${escapeHtml(JSON.stringify(key))}</span>: ${render(member, [...path, key], inner, linkFor)}`,
    );
    return `{\n${members.join(',\n')}\n${indent}}`;
  }
  if (typeof value === 'string') {
    const text = JSON.stringify(value);
    const href = linkFor(path, value) ?? (isLinkText(value) ? value : undefined);
    return `<span class="string">${href !== undefined ? link(href, text) : escapeHtml(text)}</span>`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  if (typeof value === 'number') {
    const href = linkFor(path, String(value));
    if (href !== undefined) return `<span class="number">${link(href, String(value))}</span>`;
  }
  const text = JSON.stringify(value ?? null);
  return `<span class="${value === null ? 'null' : typeof value}">${escapeHtml(text)}</span>`;
}

/** Strings shown as links of their own: absolute http(s) URLs and paths of this API. */
function isLinkText(value: string): boolean {
  return (/^https?:\/\//.test(value) || value.startsWith('/api/')) && isSafeHref(value);
}
