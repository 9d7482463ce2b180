import { describe, expect, it } from 'vitest';
import { BULLET, bullets, redactSnapshot, selectorProblem } from './redact-snapshot';

describe('bullets', () => {
  it('keeps the length and the white space, and none of the characters', () => {
    expect(bullets('Jane  Cooper\n$1,200')).toBe('••••  ••••••\n••••••');
    // One bullet per code point: an emoji or an accented letter is one character on screen.
    expect(bullets('Zoë 👋')).toBe(`${BULLET.repeat(3)} ${BULLET}`);
    expect(bullets('')).toBe('');
  });
});

describe('redactSnapshot', () => {
  const page = (body: string) => `<!doctype html><html><head><style>p{color:red}</style></head><body>${body}</body></html>`;

  it('obscures the matched element and its descendants, and nothing else', () => {
    const { html, matches } = redactSnapshot(
      page('<div class="card"><p>Jane <b>Cooper</b></p><!-- id 42 --></div><p>Public &amp; plain</p>'),
      ['.card'],
    );
    expect(matches).toEqual([1]);
    expect(html).toContain('<p style="background-image: none !important">•••• <b style="background-image: none !important">••••••</b></p>');
    expect(html).not.toContain('id 42');
    expect(html).toContain('<p>Public &amp; plain</p>');
    // The page's own style sheet is not words: it stays, and the pseudo-element rule is added once.
    expect(html).toContain('<style>p{color:red}</style>');
    expect(html.match(/<style data-demoshare-redacted>/g)).toHaveLength(1);
  });

  it('drops attributes that carry words and addresses, form values and pictures', () => {
    const { html } = redactSnapshot(
      page(
        '<form id="f"><a href="mailto:a@b.test" title="a@b.test" data-user="a@b.test" aria-label="a@b.test" class="link">x</a>' +
          '<input type="email" name="email" value="a@b.test" placeholder="a@b.test"><textarea rows="2">a@b.test</textarea>' +
          '<img src="https://x.test/a.png" srcset="https://x.test/a2.png 2x" alt="a@b.test" width="10">' +
          '<svg viewBox="0 0 4 4"><text>a@b.test</text></svg><picture><source srcset="https://x.test/b.webp"></picture>' +
          '<div style="background: url(&quot;https://x.test/bg.png&quot;) no-repeat; color: red">y</div></form>',
      ),
      ['#f'],
    );
    expect(html).not.toContain('a@b.test');
    expect(html).not.toContain('x.test');
    expect(html).toContain('class="link"');
    expect(html).toContain('<input type="email" style="background-image: none !important">');
    expect(html).toContain('<textarea rows="2" style="background-image: none !important"></textarea>');
    expect(html).toContain('<img width="10" style="background-image: none !important">');
    expect(html).toContain('background: none no-repeat; color: red; background-image: none !important');
    expect(html).toMatch(/<form id="f" style="[^"]*filter: blur\(5px\) !important[^"]*" data-demoshare-redacted>/);
  });

  it('blurs nested matches once, through the outermost', () => {
    const { html, matches } = redactSnapshot(page('<section><p>One</p><p>Two</p></section>'), ['section', 'p', '.none']);
    expect(matches).toEqual([1, 2, 0]);
    expect(html.match(/filter: blur/g)).toHaveLength(1);
  });

  it('adds no rule when nothing matches', () => {
    const { html, matches } = redactSnapshot(page('<p>Hi</p>'), ['.none']);
    expect(matches).toEqual([0]);
    expect(html).not.toContain('data-demoshare-redacted');
  });
});

describe('selectorProblem', () => {
  it.each(['#account', 'div.card > p:nth-of-type(2)', 'a[href^="mailto:"]', 'section:has(h2)', 'h1, h2'])('accepts %s', (s) => {
    expect(selectorProblem(s)).toBeNull();
  });
  it.each(['', '  ', 'div[', 'p >', 'a,', 'p::before', ':no-such-pseudo'])('refuses %j', (s) => {
    expect(selectorProblem(s)).toEqual(expect.any(String));
  });
});
