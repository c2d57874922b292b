import { useMemo } from 'react';
import { useServices } from '../../lib/services.ts';
import { useFormat } from '../../lib/format.ts';

interface StatsTextParts {
  nbHits: number;
  processingTimeMS: number;
  nbSortedHits?: number;
  areHitsSorted?: boolean;
}

/**
 * The result count as a shopper reads it ("1,234 results"), in the shop's locale. The search time ("found in
 * 3ms") is for the shop's developers and only shows with `display.searchTime`.
 */
export function useStatsTexts(): { rootElementText: (parts: StatsTextParts) => string; announcementText: (parts: StatsTextParts) => string } {
  const { config } = useServices();
  const format = useFormat();
  return useMemo(() => {
    const count = (value: number) => `${format.number(value)} result${value === 1 ? '' : 's'}`;
    const sentence = ({ nbHits, nbSortedHits, areHitsSorted }: StatsTextParts) =>
      areHitsSorted && nbSortedHits !== undefined && nbSortedHits !== nbHits
        ? `${format.number(nbSortedHits)} best match${nbSortedHits === 1 ? '' : 'es'} of ${count(nbHits)}`
        : count(nbHits);
    return {
      rootElementText: (parts) => (config.display.searchTime ? `${sentence(parts)} found in ${parts.processingTimeMS}ms` : sentence(parts)),
      // The live region never reads the timing out.
      announcementText: sentence,
    };
  }, [config.display.searchTime, format]);
}
