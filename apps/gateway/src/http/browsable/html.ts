/**
 * HTML text from anything: every character that could end a text node or an attribute value
 * (`& < > " '`) becomes a character reference, so no value, whatever it holds, becomes markup.
 */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * A link target the page may carry: an absolute http(s) URL or a path on this host. Anything else
 * (`javascript:`, `data:`, `//other.host`) is no link.
 */
export function isSafeHref(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//') && !value.startsWith('/\\');
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** `<a href="…">text</a>`, both escaped. */
export function link(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}
