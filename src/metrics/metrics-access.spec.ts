import { cameThroughProxy, isLoopback, metricsVerdict } from './metrics-access';

describe(metricsVerdict.name, () => {
  const local = { authorization: undefined, forwarded: false, socketAddress: '127.0.0.1' };
  const token = 'a-metrics-token-of-some-length';

  it('without a token, allows a loopback peer that came without X-Forwarded-For', () => {
    expect(metricsVerdict(undefined, local)).toBe('allow');
    expect(metricsVerdict(undefined, { ...local, socketAddress: '::1' })).toBe('allow');
    expect(metricsVerdict(undefined, { ...local, socketAddress: '::ffff:127.0.0.9' })).toBe('allow');
  });

  it('without a token, forbids other peers and anything relayed by a proxy', () => {
    expect(metricsVerdict(undefined, { ...local, socketAddress: '10.0.0.5' })).toBe('forbidden');
    expect(metricsVerdict(undefined, { ...local, socketAddress: '::ffff:192.168.1.2' })).toBe('forbidden');
    expect(metricsVerdict(undefined, { ...local, socketAddress: undefined })).toBe('forbidden');
    expect(metricsVerdict(undefined, { ...local, forwarded: true })).toBe('forbidden');
  });

  it('with a token, needs exactly that bearer token, from any address', () => {
    expect(metricsVerdict(token, { ...local, socketAddress: '10.0.0.5', authorization: `Bearer ${token}` })).toBe('allow');
    expect(metricsVerdict(token, { ...local, authorization: `bearer ${token}` })).toBe('allow');
    expect(metricsVerdict(token, local)).toBe('unauthorized');
    expect(metricsVerdict(token, { ...local, authorization: `Bearer ${token}x` })).toBe('unauthorized');
    expect(metricsVerdict(token, { ...local, authorization: token })).toBe('unauthorized');
    expect(metricsVerdict(token, { ...local, authorization: 'Bearer ' })).toBe('unauthorized');
  });
});

describe(isLoopback.name, () => {
  it('knows the loopback ranges and nothing else', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['128.0.0.1', '::2', '::ffff:10.0.0.1', 'localhost', ''].map(isLoopback)).toEqual([false, false, false, false, false]);
  });
});

describe(cameThroughProxy.name, () => {
  it.each(['Forwarded', 'X-Forwarded-For', 'X-Forwarded-Host', 'X-Real-IP', 'True-Client-IP', 'CF-Connecting-IP', 'Via', 'X-Forwarded-Proto'])('sees %s, even empty', (name) => {
    expect(cameThroughProxy({ [name.toLowerCase()]: '' })).toBe(true);
    expect(cameThroughProxy({ [name.toLowerCase()]: 'for=127.0.0.1' })).toBe(true);
  });

  it('sees nothing in the headers of a plain scrape', () => {
    expect(cameThroughProxy({ host: '127.0.0.1:3000', 'user-agent': 'Prometheus/2.53', accept: 'text/plain', authorization: 'Bearer x' })).toBe(false);
  });
});
