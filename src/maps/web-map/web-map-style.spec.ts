import { CITY_URL_TEMPLATE_PATTERN, HEX_COLOR_PATTERN } from '../../config/web-map-patterns';
import { cityDetailHtml, cityUrl, parseHexColor } from './web-map-style';

const city = { id: 12, name: 'Shin <b>juku</b> & "co"', nameKana: 'しんじゅく', count: 12345, corners: [], owner: { uuid: 'f84c6a79-0a4e-45e0-879b-cd49ebd4c4e2', mcid: 'Kaze' } };

describe('parseHexColor', () => {
  it('reads rrggbb as opaque and rrggbbaa with its alpha as a 0–1 opacity (two decimals), with or without #', () => {
    expect(parseHexColor('#1b4f9c')).toEqual({ r: 0x1b, g: 0x4f, b: 0x9c, a: 1 });
    expect(parseHexColor('1b4f9c')).toEqual({ r: 0x1b, g: 0x4f, b: 0x9c, a: 1 });
    expect(parseHexColor('#2F80ED4D')).toEqual({ r: 0x2f, g: 0x80, b: 0xed, a: 0.3 });
    expect(parseHexColor('2f80ed4d')).toEqual({ r: 0x2f, g: 0x80, b: 0xed, a: 0.3 });
    expect(parseHexColor('#00000000').a).toBe(0);
  });

  it.each(['#1b4f9', '##1b4f9c', '#1b4f9c0', '#gggggg', 'blue', ''])('refuses %j (the config pattern refuses it first)', (text) => {
    expect(HEX_COLOR_PATTERN.test(text)).toBe(false);
    expect(() => parseHexColor(text)).toThrow();
  });
});

describe('cityUrl', () => {
  it('puts the id as digits and the name percent-encoded', () => {
    expect(cityUrl('https://club.example.org/cities/{id}?n={name}', { id: 7, name: 'A b/ち' })).toBe('https://club.example.org/cities/7?n=A%20b%2F%E3%81%A1');
  });

  it.each([
    ['https://club.example.org/cities/{id}', true],
    ['http://10.0.0.2:8080/c?id={id}', true],
    ['javascript:alert(1)', false],
    ['https://x/{id}" onclick="x', false],
    ['https://x/<script>', false],
    ['//x/{id}', false],
  ])('template %j is acceptable: %s', (template, ok) => {
    expect(CITY_URL_TEMPLATE_PATTERN.test(template)).toBe(ok);
  });
});

describe('cityDetailHtml', () => {
  it('escapes the player-written names and the owner', () => {
    const html = cityDetailHtml({ ...city, owner: { uuid: city.owner.uuid, mcid: '<i>x</i>' } }, { cityUrl: null });
    expect(html).not.toMatch(/<b>|<i>/);
    expect(html).toContain('Shin &#60;b&#62;juku&#60;/b&#62; &#38; &#34;co&#34;');
    expect(html).toContain('Owner: &#60;i&#62;x&#60;/i&#62;');
    expect(html).toContain('12,345 blocks');
    expect(html).not.toContain('<a ');
  });

  it('names the owner by uuid when no game id is known', () => {
    expect(cityDetailHtml({ ...city, owner: { uuid: city.owner.uuid, mcid: null } }, { cityUrl: null })).toContain(`Owner: ${city.owner.uuid}`);
  });

  it('links to the city page built from the template, in a new tab', () => {
    const html = cityDetailHtml(city, { cityUrl: 'https://club.example.org/cities/{id}' });
    expect(html).toContain('<a href="https://club.example.org/cities/12" target="_blank" rel="noopener">City page</a>');
  });
});
