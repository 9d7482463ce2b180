import { describe, expect, it } from 'vitest';
import { pageKey, pickLinks } from './link-picker';

const page = (url: string, hrefs: string[]) => ({
  url,
  title: 'Home',
  links: hrefs.map((href) => ({ href: new URL(href, url).toString(), text: '', inNav: true })),
});

describe('pickLinks', () => {
  it('never picks the page itself, however the site spells its address', () => {
    const home = page('https://acme.test/', ['/', '/index.html', '/#top', '/?ref=nav', 'https://acme.test', '/pricing']);
    expect(pickLinks(home as never, [home.url], 5)).toEqual(['https://acme.test/pricing']);
  });

  it('takes /pricing, /pricing/ and /pricing/index.html as one page', () => {
    const home = page('https://acme.test/', ['/pricing', '/pricing/', '/pricing/index.html', '/features/']);
    const picked = pickLinks(home as never, [home.url], 5);
    expect(picked).toHaveLength(2);
    expect(new Set(picked.map(pageKey))).toEqual(new Set(['https://acme.test/pricing', 'https://acme.test/features']));
  });

  it('keeps the root distinct from its pages', () => {
    expect(pageKey('https://acme.test/')).toBe('https://acme.test/');
    expect(pageKey('https://acme.test/docs//')).toBe('https://acme.test/docs');
  });
});
