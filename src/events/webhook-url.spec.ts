import { isForbiddenAddress, maskUrl, parseWebhookUrl } from './webhook-url';

describe('webhook URL rules', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.5.4',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '0.0.0.0',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    '0:0:0:0:0:0:0:1',
    'fe80::1',
    'fd00::1',
    'fc12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    'ff02::1',
    // Forms that embed an IPv4 address, none of them global unicast.
    '::127.0.0.1', // IPv4-compatible (::/96)
    '::a00:1',
    '::ffff:0:127.0.0.1', // IPv4-translated (::ffff:0:0:0/96)
    '::ffff:0:93.184.216.34',
    '2002:7f00:1::', // 6to4 of 127.0.0.1
    '2002:5db8:d822::1', // 6to4 of a public address: a relay decides where it goes
    '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
    '64:ff9b:1::a00:1', // local-use NAT64 (64:ff9b:1::/48)
    '64:ff9b:1::5db8:d822',
    '2001:2::1', // benchmarking (2001::/23)
    '2001:db8::1', // documentation
    '3fff::1', // documentation (3fff::/20)
    '100::1', // discard-only
    '::ffff:172.16.0.1',
    '64:ff9b::192.168.0.1',
    '64:ff9b::ffff:ffff', // NAT64 of 255.255.255.255
    'fe80::1%eth0', // a zone does not hide the address
    '2001:db8::1%1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '192.169.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:93.184.216.34', '64:ff9b::5db8:d822', '2a00:1450:4001:82b::200e', '2001:4860:4860::8888', '2a00:1450:4001:82b::200e%eth0'])(
    'allows %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it('masks path and query after the host', () => {
    expect(maskUrl('https://discord.com/api/webhooks/123/secret-token?wait=true')).toBe('https://discord.com/…');
    expect(maskUrl('http://example.org:8080/')).toBe('http://example.org:8080/');
    expect(maskUrl('http://[2606:4700::1]:81/x')).toBe('http://[2606:4700::1]:81/…');
  });

  it('accepts only absolute http(s) URLs without credentials', () => {
    expect(parseWebhookUrl('https://example.org/hook')).toBeInstanceOf(URL);
    expect(parseWebhookUrl('ftp://example.org/')).toBeUndefined();
    expect(parseWebhookUrl('/relative')).toBeUndefined();
    expect(parseWebhookUrl('https://user:pw@example.org/')).toBeUndefined();
  });
});
