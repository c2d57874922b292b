import { useCurrentRefinements } from 'react-instantsearch';
import type { CurrentRefinementsConnectorParamsItem } from 'instantsearch.js/es/connectors/current-refinements/connectCurrentRefinements';
import { useFormat } from '../../lib/format.ts';
import type { Format } from '../../lib/format.ts';
import { categoryAttributes, categorySeparator } from '../../lib/catalog.ts';

const attributeLabels: Record<string, string> = {
  brand: 'Brand',
  color: 'Color',
  price: 'Price',
  rating: 'Rating',
  [categoryAttributes[0]]: 'Category',
};

type Refinement = CurrentRefinementsConnectorParamsItem['refinements'][number];

/** What a chip says: the shopper's words, prices in the shop's currency, and a toggle by its own name. */
function chipText(attribute: string, refinement: Refinement, format: Format): string {
  if (attribute === 'free_shipping') return 'Free shipping';
  if (attribute === 'rating') return `${String(refinement.value)} & up`;
  if (attribute === 'price' && typeof refinement.value === 'number') {
    return `${refinement.operator === '<=' ? '≤' : '≥'} ${format.price(refinement.value)}`;
  }
  if (attribute === categoryAttributes[0]) return String(refinement.label).split(categorySeparator).join(' › ');
  return String(refinement.label);
}

/**
 * The active filters as removable chips, with the stock CurrentRefinements markup and classes. Our own so each
 * chip reads as the shopper would say it: "Free shipping" (the stock widget says "Free shipping: true"),
 * "Price: ≥ $10.00".
 */
export function ActiveFilters() {
  const { items, canRefine, refine } = useCurrentRefinements();
  const format = useFormat();
  return (
    <div className={`ais-CurrentRefinements${canRefine ? '' : ' ais-CurrentRefinements--noRefinement'}`}>
      <ul className="ais-CurrentRefinements-list">
        {items.map((item) => {
          const label = attributeLabels[item.attribute];
          return (
            <li key={`${item.indexName}:${item.attribute}`} className="ais-CurrentRefinements-item">
              {label && <span className="ais-CurrentRefinements-label">{label}:</span>}
              {item.refinements.map((refinement) => {
                const text = chipText(item.attribute, refinement, format);
                return (
                  <span key={`${refinement.type}:${String(refinement.value)}:${refinement.operator ?? ''}`} className="ais-CurrentRefinements-category">
                    <span className="ais-CurrentRefinements-categoryLabel">{text}</span>
                    <button type="button" className="ais-CurrentRefinements-delete" onClick={() => refine(refinement)}>
                      <span aria-hidden="true">✕</span>
                      <span className="vt-sr-only">Remove {label ? `${label}: ` : ''}{text}</span>
                    </button>
                  </span>
                );
              })}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
