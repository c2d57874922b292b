/**
 * Properties checked (criterion `geo`):
 * - with aroundLatLng, records nearer the point rank first; records without `_geoloc` come last;
 * - aroundPrecision makes records within the same band tie (the next criteria decide);
 * - without aroundLatLng the criterion does nothing; aroundRadius filters; _rankingInfo reports the distance.
 */
import { describe, expect, it } from 'vitest';
import { SearchIndex } from '../../search-index.ts';
import { ranked } from './fixture.ts';

const paris = { lat: 48.8566, lng: 2.3522 };
const records = [
  { objectID: 'lyon', name: 'shop', _geoloc: { lat: 45.764, lng: 4.8357 } }, // ~390 km
  { objectID: 'nowhere', name: 'shop' }, // no location: last
  { objectID: 'versailles', name: 'shop', _geoloc: { lat: 48.8049, lng: 2.1204 } }, // ~18 km
  { objectID: 'lille', name: 'shop', _geoloc: [{ lat: 50.6292, lng: 3.0573 }, { lat: 0, lng: 0 }] }, // ~204 km (nearest point)
];

describe('geo criterion', () => {
  it('ranks nearer records first', () => {
    const around = `${paris.lat},${paris.lng}`;
    expect(ranked(records, {}, { query: 'shop', aroundLatLng: around })).toEqual(['versailles', 'lille', 'lyon', 'nowhere']);
    expect(ranked(records, {}, { query: 'shop' })).toEqual(['lyon', 'nowhere', 'versailles', 'lille']);
    // 500 km bands: every located record ties, insertion order decides; the unlocated one stays last.
    expect(ranked(records, {}, { query: 'shop', aroundLatLng: around, aroundPrecision: 500_000 })).toEqual(['lyon', 'versailles', 'lille', 'nowhere']);
  });

  it('filters by aroundRadius', () => {
    const around = `${paris.lat},${paris.lng}`;
    expect(ranked(records, {}, { query: 'shop', aroundLatLng: around, aroundRadius: 250_000 })).toEqual(['versailles', 'lille']);
  });

  it('reports the distance in _rankingInfo', () => {
    const index = new SearchIndex();
    index.saveObjects(records);
    const [first] = index.search({ query: 'shop', aroundLatLng: `${paris.lat},${paris.lng}`, getRankingInfo: true }).hits;
    expect(first._rankingInfo!.geoDistance).toBeGreaterThan(17_000);
    expect(first._rankingInfo!.geoDistance).toBeLessThan(19_000);
  });
});
