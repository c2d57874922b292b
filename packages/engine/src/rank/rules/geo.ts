/** `geo`: nearer first, when records have `_geoloc` and the query gives `aroundLatLng`. */
import type { RuleFactory } from '../rule.ts';

export const geoRule: RuleFactory = (context) => {
  const key = context.geoKey;
  if (key === null) return null;
  return { name: 'geo', key };
};
