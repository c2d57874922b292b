import { describe, expect, it } from 'vitest';
import { buildCategoryTree } from './lib/catalog.ts';
import { parseStorefrontConfig, sortOptions } from './lib/config.ts';
import { pathToRoute, routeTitle, routeToPath, routeToState, stateToRoute } from './routing.ts';
import type { RouteState, RoutingContext } from './routing.ts';

const config = parseStorefrontConfig({
  appId: 'app',
  searchApiKey: 'key',
  replicas: { priceAsc: 'products_price_asc', priceDesc: 'products_price_desc', relevantPriceAsc: 'products_rel' },
});
const context: RoutingContext = {
  indexName: 'products',
  sortOptions: sortOptions(config),
  hitsPerPageOptions: [20, 40, 60],
  categories: buildCategoryTree({
    'hierarchicalCategories.lvl0': { Computers: 10, 'Home & Kitchen': 5 },
    'hierarchicalCategories.lvl1': { 'Computers > Laptops': 4, 'Home & Kitchen > Lighting': 5 },
    'hierarchicalCategories.lvl2': { 'Home & Kitchen > Lighting > Table Lamps': 3 },
  }),
};

const full: RouteState = {
  query: 'lamp shade',
  category: ['Home & Kitchen', 'Lighting', 'Table Lamps'],
  brand: ['Acme', 'Bright & Co'],
  color: ['red'],
  price: { min: 10, max: 200 },
  rating: 4,
  freeShipping: true,
  sort: 'price_asc',
  page: 3,
  hitsPerPage: 40,
  view: 'infinite',
};

describe('routing', () => {
  it('writes readable paths and parameters, categories as slugs', () => {
    expect(routeToPath(full, context)).toBe(
      '/c/home-kitchen/lighting/table-lamps?q=lamp+shade&brand=Acme&brand=Bright+%26+Co&color=red&price=10%3A200&rating=4&free_shipping=true&sort=price_asc&per_page=40&page=3&view=infinite',
    );
    expect(routeToPath({ query: 'lamp', brand: ['Acme'], color: ['red'], price: { min: 10, max: 200 } }, context)).toBe(
      '/?q=lamp&brand=Acme&color=red&price=10%3A200',
    );
  });

  it('leaves defaults out: the empty search is "/"', () => {
    expect(routeToPath({}, context)).toBe('/');
    const uiState = routeToState({}, context);
    expect(stateToRoute({ products: { ...uiState.products, page: 1, hitsPerPage: 20, sortBy: 'products' } }, context)).toEqual({});
  });

  it('round-trips route → URL → route and route → UI state → route', () => {
    const url = new URL(routeToPath(full, context), 'http://shop.test');
    expect(pathToRoute(url.pathname, url.search, context)).toEqual(full);
    expect(stateToRoute(routeToState(full, context), context)).toEqual(full);
  });

  it('maps the route onto the widgets’ UI state', () => {
    expect(routeToState(full, context)).toEqual({
      products: {
        query: 'lamp shade',
        hierarchicalMenu: { 'hierarchicalCategories.lvl0': ['Home & Kitchen', 'Lighting', 'Table Lamps'] },
        refinementList: { brand: ['Acme', 'Bright & Co'], color: ['red'] },
        range: { price: '10:200', rating: '4:' },
        toggle: { free_shipping: true },
        sortBy: 'products_price_asc',
        page: 3,
        hitsPerPage: 40,
        view: 'infinite',
      },
    });
  });

  it('drops what it cannot read instead of failing', () => {
    expect(pathToRoute('/c/no-such-category', '?page=-1&per_page=33&sort=bogus&rating=9&price=abc&view=grid', context)).toEqual({});
    expect(pathToRoute('/c/%E0%A4%A', '?price=:50', context)).toEqual({ price: { max: 50 } });
    expect(pathToRoute('/', `?q=${'x'.repeat(600)}`, context).query).toHaveLength(512);
  });

  it('titles the page after the query and the category', () => {
    expect(routeTitle({ query: 'lamp', category: ['Home & Kitchen', 'Lighting'] })).toBe('“lamp” in Lighting – Vitrine');
    expect(routeTitle({ category: ['Computers'] })).toBe('Computers – Vitrine');
    expect(routeTitle({})).toBe('Vitrine – search the catalogue');
  });
});
