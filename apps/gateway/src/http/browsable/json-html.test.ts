import { describe, expect, it } from 'vitest';
import { escapeHtml, isSafeHref } from './html.js';
import { jsonToHtml } from './json-html.js';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

describe('jsonToHtml', () => {
  const body = {
    '<k>': '<script>alert(1)</script>',
    nested: { list: [1, -2.5, true, null, [], {}], empty: '' },
    next: 'https://api.example/api/v1/widgets/?page=2&page_size=1',
    path: '/api/v1/widgets/',
    evil: 'javascript:alert(1)',
    other: '//evil.example/',
  };

  it('reads as the JSON a client gets, indented by four spaces', () => {
    expect(text(jsonToHtml(body))).toBe(JSON.stringify(body, null, 4));
  });

  it('escapes keys and values and links only http(s) URLs and API paths', () => {
    const html = jsonToHtml(body);

    expect(html).not.toContain('<script>');
    expect(html).toContain('<span class="key">&quot;&lt;k&gt;&quot;</span>');
    expect(html).toContain(
      '<a href="https://api.example/api/v1/widgets/?page=2&amp;page_size=1">&quot;https://api.example/api/v1/widgets/?page=2&amp;page_size=1&quot;</a>',
    );
    expect(html).toContain('<a href="/api/v1/widgets/">&quot;/api/v1/widgets/&quot;</a>');
    expect(html).toContain('<span class="string">&quot;javascript:alert(1)&quot;</span>');
    expect(html).toContain('<span class="string">&quot;//evil.example/&quot;</span>');
  });

  it('links what linkFor names, strings and numbers, by their place in the body', () => {
    const html = jsonToHtml({ results: [{ id: 7, code: 'a&b' }] }, (path, value) =>
      path[2] === 'id' || path[2] === 'code' ? `/x/${encodeURIComponent(value)}/` : undefined,
    );

    expect(html).toContain('<span class="number"><a href="/x/7/">7</a></span>');
    expect(html).toContain('<a href="/x/a%26b/">&quot;a&amp;b&quot;</a>');
  });
});

describe('html helpers', () => {
  it('escapes the five characters that end text or attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });

  it.each([
    ['/api/v1/', true],
    ['https://example.com/', true],
    ['http://127.0.0.1:8000/api/v1/', true],
    ['//evil.example/', false],
    ['/\\evil.example', false],
    ['javascript:alert(1)', false],
    ['data:text/html,x', false],
    ['not a url', false],
  ])('%s is a safe link: %s', (href, safe) => {
    expect(isSafeHref(href)).toBe(safe);
  });
});
