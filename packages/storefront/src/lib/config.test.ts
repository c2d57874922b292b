import { describe, expect, it } from 'vitest';
import { ConfigError, parseStorefrontConfig, sortOptions } from './config.ts';

describe('storefront config', () => {
  it('fills defaults around the required fields', () => {
    expect(parseStorefrontConfig({ appId: 'app', searchApiKey: 'key' })).toEqual({
      provider: 'vitrine',
      appId: 'app',
      searchApiKey: 'key',
      indexName: 'products',
      replicas: { priceAsc: undefined, priceDesc: undefined, relevantPriceAsc: undefined },
      insights: { enabled: true, useCdn: false },
      currency: 'USD',
    });
  });

  it('names the offending field', () => {
    expect(() => parseStorefrontConfig({ appId: 'app' })).toThrow(new ConfigError('vitrine.config.json: "searchApiKey" must be a non-empty string'));
    expect(() => parseStorefrontConfig({ appId: 'a', searchApiKey: 'k', provider: 'elastic' })).toThrow(/"provider"/);
    expect(() => parseStorefrontConfig({ appId: 'a', searchApiKey: 'k', insights: { useCdn: 'yes' } })).toThrow(/insights.useCdn/);
    expect(() => parseStorefrontConfig([])).toThrow(ConfigError);
  });

  it('offers relevance first, then only the replicas the config names', () => {
    const config = parseStorefrontConfig({ appId: 'a', searchApiKey: 'k', provider: 'algolia', replicas: { priceDesc: 'p_desc' } });
    expect(sortOptions(config).map((option) => [option.key, option.value])).toEqual([
      ['relevance', 'products'],
      ['price_desc', 'p_desc'],
    ]);
  });
});
