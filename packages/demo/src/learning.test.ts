import { describe, expect, it } from 'vitest';
import { generateProducts } from './generate.ts';
import { generateHistory } from './history/generate-history.ts';
import { demoPersonalizationStrategy, isDemoFacet } from './learning.ts';
import { demoSettings } from './settings.ts';

describe("the demo's personalization strategy", () => {
  it('scores every event the generated history holds', () => {
    const history = generateHistory(generateProducts(300), { days: 3, sessionsPerDay: 200 });
    const scored = new Set(demoPersonalizationStrategy.eventsScoring.map((entry) => `${entry.eventType} ${entry.eventName}`));
    const sent = new Set(history.events.map((event) => `${event.eventType} ${event.eventName}`));
    expect(sent.size).toBeGreaterThan(3);
    for (const name of sent) expect(scored).toContain(name);
  });

  it('names facets of the demo index only, and the index personalizes its searches', () => {
    for (const { facetName } of demoPersonalizationStrategy.facetsScoring) expect(isDemoFacet(facetName)).toBe(true);
    expect(isDemoFacet('brand')).toBe(true);
    expect(isDemoFacet('groupID')).toBe(true);
    expect(isDemoFacet('material')).toBe(false);
    expect(demoSettings.enablePersonalization).toBe(true);
  });
});
