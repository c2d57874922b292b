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
      locale: 'en-US',
      display: { resultsView: 'pages', searchTime: false },
      recommend: { enabled: true },
      querySuggestions: { enabled: true, indexName: 'products_query_suggestions' },
    });
  });

  it('reads the recommendations and query suggestions switches', () => {
    const config = parseStorefrontConfig({
      appId: 'a', searchApiKey: 'k', indexName: 'shop', recommend: { enabled: false }, querySuggestions: { indexName: 'shop_qs' },
    });
    expect(config.recommend).toEqual({ enabled: false });
    expect(config.querySuggestions).toEqual({ enabled: true, indexName: 'shop_qs' });
    expect(parseStorefrontConfig({ appId: 'a', searchApiKey: 'k', indexName: 'shop' }).querySuggestions.indexName).toBe('shop_query_suggestions');
    expect(() => parseStorefrontConfig({ appId: 'a', searchApiKey: 'k', recommend: { enabled: 'no' } })).toThrow(/"recommend.enabled"/);
    expect(() => parseStorefrontConfig({ appId: 'a', searchApiKey: 'k', querySuggestions: [] })).toThrow(/"querySuggestions" must be an object/);
  });

  it('reads the locale and the display choices, refusing unknown ones', () => {
    const config = parseStorefrontConfig({ appId: 'a', searchApiKey: 'k', locale: 'de-DE', display: { resultsView: 'infinite', searchTime: true } });
    expect(config.locale).toBe('de-DE');
    expect(config.display).toEqual({ resultsView: 'infinite', searchTime: true });
    expect(() => parseStorefrontConfig({ appId: 'a', searchApiKey: 'k', locale: 'not a locale!' })).toThrow(/"locale"/);
    expect(() => parseStorefrontConfig({ appId: 'a', searchApiKey: 'k', display: { resultsView: 'grid' } })).toThrow(/"display.resultsView"/);
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
