import type { PersonalizationStrategy } from '@vitrine/protocol';
import { demoSettings } from './settings.ts';

/**
 * The personalization strategy the demo starts with (`vitrine start` sets it on a fresh data folder, before the
 * generated history's first model build, so that build's profiles follow it): the events of the generated
 * history (`Hit Clicked`, `Added To Cart`, `Purchased`, `Filter Clicked`) and those the storefront sends
 * (`Product Clicked`, `Product Added To Cart`, `Order Placed`, recommendation clicks), scored by how much they say
 * of a taste, over the demo's brand, colour and sub-department facets. An impact of 50: a shopper's affinities
 * order hits the query and filters leave tied (the engine's criterion just before customRanking), in steps of 51
 * points, so a strong taste moves hits and a passing one does not.
 */
export const demoPersonalizationStrategy: PersonalizationStrategy = {
  eventsScoring: [
    { eventName: 'Product Viewed', eventType: 'view', score: 10 },
    { eventName: 'Hit Clicked', eventType: 'click', score: 30 },
    { eventName: 'Product Clicked', eventType: 'click', score: 30 },
    { eventName: 'Filter Clicked', eventType: 'click', score: 20 },
    { eventName: 'Related Product Clicked', eventType: 'click', score: 20 },
    { eventName: 'Bought Together Clicked', eventType: 'click', score: 20 },
    { eventName: 'Trending Item Clicked', eventType: 'click', score: 20 },
    { eventName: 'Added To Cart', eventType: 'conversion', score: 50 },
    { eventName: 'Product Added To Cart', eventType: 'conversion', score: 50 },
    { eventName: 'Purchased', eventType: 'conversion', score: 100 },
    { eventName: 'Order Placed', eventType: 'conversion', score: 100 },
  ],
  facetsScoring: [
    { facetName: 'brand', score: 100 },
    { facetName: 'color', score: 60 },
    { facetName: 'hierarchicalCategories.lvl1', score: 40 },
  ],
  personalizationImpact: 50,
};

/** Whether the demo index facets on `name` (an `attributesForFaceting` entry, its modifier aside). */
export function isDemoFacet(name: string): boolean {
  return (demoSettings.attributesForFaceting ?? []).some((entry) => entry.replace(/^\w+\((.*)\)$/, '$1') === name);
}
