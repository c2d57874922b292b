/**
 * A test's rates side by side: click-through, conversion, add-to-cart and purchase rates of variants A and B as
 * grouped bars, in SVG written here (the analytics screen's way: no chart library). The variants' table under it
 * holds the same numbers.
 */
import { useId } from 'react';
import type { ABTest } from 'algoliasearch';
import { percent } from './abtest-form.ts';

const width = 520;
const height = 200;
const plot = { left: 40, right: width - 8, top: 12, bottom: height - 36 };
const METRICS = [
  ['clickThroughRate', 'Click-through'],
  ['conversionRate', 'Conversion'],
  ['addToCartRate', 'Add to cart'],
  ['purchaseRate', 'Purchase'],
] as const;

export function RatesChart({ test }: { test: ABTest }) {
  const id = useId();
  const rates = METRICS.map(([field]) => test.variants.map((variant) => variant[field] ?? null));
  const top = Math.max(0.01, ...rates.flat().map((rate) => rate ?? 0));
  const group = (plot.right - plot.left) / METRICS.length;
  const bar = group / 3;
  const y = (rate: number) => plot.bottom - (rate / top) * (plot.bottom - plot.top);
  const description = METRICS.map(([, label], i) => `${label}: A ${percent(rates[i][0])}, B ${percent(rates[i][1])}`).join('; ');
  return (
    <figure className="vt-chart">
      <figcaption className="vt-chart-caption">Rates by variant (A left, B right)</figcaption>
      <svg className="vt-chart-svg vt-chart--bar" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
        <title id={`${id}-title`}>Rates by variant</title>
        <desc id={`${id}-desc`}>{description}</desc>
        <g className="vt-chart-x" aria-hidden="true">
          <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
          <text x={plot.left - 4} y={plot.top} dy="0.32em" textAnchor="end">{percent(top)}</text>
          {METRICS.map(([field, label], i) => (
            <text key={field} x={plot.left + i * group + group / 2} y={plot.bottom + 18} textAnchor="middle">{label}</text>
          ))}
        </g>
        <g className="vt-chart-data">
          {METRICS.map(([field, label], i) =>
            rates[i].map((rate, v) => (
              // B's bars lighter: a presentation attribute, not a style (the page's CSP refuses inline styles).
              <rect key={`${field}-${v}`} x={plot.left + i * group + bar / 2 + v * bar} y={y(rate ?? 0)} width={bar * 0.9} height={plot.bottom - y(rate ?? 0)} fillOpacity={v === 0 ? 1 : 0.45}>
                <title>{`${label}, variant ${v === 0 ? 'A' : 'B'}: ${percent(rate)}`}</title>
              </rect>
            )),
          )}
        </g>
      </svg>
    </figure>
  );
}
