import { describe, expect, it } from 'vitest';
import { UsageError } from '../errors.ts';
import { defaultSearchThreads, readEnvironment } from './env.ts';

describe('readEnvironment', () => {
  it('has documented defaults', () => {
    expect(readEnvironment({}, '/srv/shop')).toEqual({
      port: 3000,
      host: 'localhost',
      dataDir: '/srv/shop/data',
      appId: 'vitrine',
      adminApiKey: undefined,
      searchApiKey: undefined,
      demoSize: 10_000,
      url: 'http://localhost:3000',
      storefrontDir: undefined,
      searchThreads: defaultSearchThreads(),
      indexingShare: 0.2,
      trustProxy: false,
      publicUrls: [],
      logLevel: 'info',
    });
  });

  it('reads VITRINE_PUBLIC_URL as one or more http(s) origins, and refuses anything else', () => {
    const urls = (value: string) => readEnvironment({ VITRINE_PUBLIC_URL: value }, '/').publicUrls;
    expect(urls('https://shop.example.com')).toEqual(['https://shop.example.com']);
    expect(urls(' https://shop.example.com/ , http://boutique.example.fr:8080 ')).toEqual(['https://shop.example.com', 'http://boutique.example.fr:8080']);
    expect(urls('')).toEqual([]);
    for (const wrong of ['shop.example.com', 'ftp://shop.example.com', 'https://shop.example.com/store', 'https://shop.example.com/?a=1']) {
      expect(() => urls(wrong)).toThrow(UsageError);
      expect(() => urls(wrong)).toThrow(`VITRINE_PUBLIC_URL must be http or https origins separated by commas (https://shop.example.com, no path), got "${wrong}"`);
    }
  });

  it('reads VITRINE_LOG_LEVEL as one of the logger\'s levels, in any case, and refuses anything else', () => {
    const level = (value: string) => readEnvironment({ VITRINE_LOG_LEVEL: value }, '/').logLevel;
    for (const name of ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) expect(level(name)).toBe(name);
    expect(level(' WARN ')).toBe('warn');
    expect(level('')).toBe('info');
    expect(() => level('verbose')).toThrow(UsageError);
    expect(() => level('verbose')).toThrow('VITRINE_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"');
  });

  it('reads every variable, resolving folders against the working folder', () => {
    const env = readEnvironment(
      { PORT: '0', HOST: '0.0.0.0', VITRINE_DATA_DIR: 'state', VITRINE_APP_ID: 'shop', VITRINE_ADMIN_API_KEY: ' a ', VITRINE_DEMO_SIZE: '5', VITRINE_URL: 'http://h:1', VITRINE_SEARCH_THREADS: '3', VITRINE_INDEXING_SHARE: '0.5' },
      '/srv',
    );
    expect(env).toMatchObject({ port: 0, host: '0.0.0.0', dataDir: '/srv/state', appId: 'shop', adminApiKey: 'a', demoSize: 5, url: 'http://h:1', searchThreads: 3, indexingShare: 0.5 });
  });

  it('reads VITRINE_TRUST_PROXY as on, off, or the proxies\' addresses', () => {
    const trust = (value: string) => readEnvironment({ VITRINE_TRUST_PROXY: value }, '/').trustProxy;
    expect(trust('true')).toBe(true);
    expect(trust('1')).toBe(true);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust(' 10.0.0.1, 192.168.0.0/16,fd00::/8 ,loopback')).toEqual(['10.0.0.1', '192.168.0.0/16', 'fd00::/8', 'loopback']);
    expect(() => trust('2')).toThrow(/VITRINE_TRUST_PROXY/);
    expect(() => trust('10.0.0.0/33')).toThrow(/VITRINE_TRUST_PROXY.*10\.0\.0\.0\/33/);
    expect(() => trust('proxy.local')).toThrow(UsageError);
  });

  it('rejects malformed numbers with the variable name', () => {
    expect(() => readEnvironment({ PORT: '30o0' }, '/')).toThrow(UsageError);
    expect(() => readEnvironment({ PORT: '70000' }, '/')).toThrow(/PORT/);
    expect(() => readEnvironment({ VITRINE_DEMO_SIZE: '-1' }, '/')).toThrow(/VITRINE_DEMO_SIZE/);
    expect(() => readEnvironment({ VITRINE_SEARCH_THREADS: 'two' }, '/')).toThrow(/VITRINE_SEARCH_THREADS/);
    for (const bad of ['0', '1.5', '-0.2', 'half', '1e-1']) expect(() => readEnvironment({ VITRINE_INDEXING_SHARE: bad }, '/')).toThrow(/VITRINE_INDEXING_SHARE/);
    expect(readEnvironment({ VITRINE_INDEXING_SHARE: '1' }, '/').indexingShare).toBe(1);
  });
});
