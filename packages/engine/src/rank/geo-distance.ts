/**
 * Geo ranking support: great-circle distance from `aroundLatLng` to each record's `_geoloc` (the nearest one
 * when it is an array), bucketed by `aroundPrecision` metres so that records within one bucket tie and the next
 * criteria decide between them.
 */
import type { IndexStore } from '../index/store.ts';
import type { QueryOptions } from '../query/options.ts';

const EARTH_RADIUS_M = 6_371_000;

export function haversineMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

interface GeoColumn {
  /** Flattened points: lat, lng pairs; points of document d are [start[d], start[d + 1]). */
  points: Float64Array;
  start: Uint32Array;
  any: boolean;
}

function geoColumn(store: IndexStore): GeoColumn {
  return store.cached('geo', () => {
    const coords: number[] = [];
    const start = new Uint32Array(store.capacity + 1);
    store.records.forEach((record, doc) => {
      start[doc] = coords.length / 2;
      const raw = record?._geoloc;
      const list = Array.isArray(raw) ? raw : raw === undefined ? [] : [raw];
      for (const point of list) {
        const lat = Number((point as { lat?: unknown })?.lat);
        const lng = Number((point as { lng?: unknown })?.lng);
        if (Number.isFinite(lat) && Number.isFinite(lng)) coords.push(lat, lng);
      }
    });
    start[store.capacity] = coords.length / 2;
    return { points: Float64Array.from(coords), start, any: coords.length > 0 };
  }, undefined, { reads: ['_geoloc'] });
}

/** Distance in metres to the nearest point of `doc`, Infinity without `_geoloc`. */
export function geoDistance(store: IndexStore, doc: number, lat: number, lng: number): number {
  const column = geoColumn(store);
  let best = Infinity;
  for (let p = column.start[doc]; p < column.start[doc + 1]; p++) {
    const d = haversineMeters(lat, lng, column.points[2 * p], column.points[2 * p + 1]);
    if (d < best) best = d;
  }
  return best;
}

/** The geo criterion's key function, or null when geo ranking does not apply. */
export function geoKeyFor(store: IndexStore, options: QueryOptions): ((doc: number) => number) | null {
  if (options.aroundLatLng === null || !geoColumn(store).any) return null;
  const [lat, lng] = options.aroundLatLng;
  const precision = options.aroundPrecision;
  return (doc) => {
    const d = geoDistance(store, doc, lat, lng);
    return d === Infinity ? Infinity : Math.floor(d / precision);
  };
}
