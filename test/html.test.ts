/** The one HTML module (src/web/html.ts): what it escapes, what it leaves as it is. */
import { describe, expect, it } from 'vitest';
import { Html, html, joined, jsonScript, trusted } from '../src/web/html.js';

describe('the html tag', () => {
  it('escapes text in element content and in quoted attribute values, both quotes included', () => {
    const text = `<b>"Tom's" & co</b>`;
    expect(html`<p title="${text}">${text}</p>`.text).toBe(
      '<p title="&lt;b&gt;&quot;Tom&#39;s&quot; &amp; co&lt;/b&gt;">' +
        '&lt;b&gt;&quot;Tom&#39;s&quot; &amp; co&lt;/b&gt;</p>',
    );
  });

  it('does not escape again what it made, or what is trusted', () => {
    const inner = html`<em>${'a & b'}</em>`;
    expect(html`<p>${inner}</p>`.text).toBe('<p><em>a &amp; b</em></p>');
    expect(html`<p>${trusted('<br>')}</p>`.text).toBe('<p><br></p>');
    expect(html`${html`${html`&amp;`}`}`.text).toBe('&amp;');
  });

  it('joins arrays, escaping their text and keeping their markup', () => {
    expect(html`<ul>${['<a>', html`<li>b</li>`, [1, '&']]}</ul>`.text).toBe('<ul>&lt;a&gt;<li>b</li>1&amp;</ul>');
    expect(joined([html`<i>x</i>`, '<y>'], ', ').text).toBe('<i>x</i>, &lt;y&gt;');
  });

  it('renders null, undefined and false as nothing; numbers and true as text', () => {
    expect(html`[${null}${undefined}${false}]`.text).toBe('[]');
    expect(html`${0} ${1.5} ${true}`.text).toBe('0 1.5 true');
  });

  it('gives markup, not a string, so that it cannot be mistaken for text', () => {
    expect(html`x`).toBeInstanceOf(Html);
    expect(String(html`<b>${'<'}</b>`)).toBe('<b>&lt;</b>');
  });

  it('writes JSON for a script block that no value can close', () => {
    expect(jsonScript({ name: '</script><script>alert(1)</script>' }).text).toBe(
      '{"name":"\\u003c/script>\\u003cscript>alert(1)\\u003c/script>"}',
    );
  });
});
