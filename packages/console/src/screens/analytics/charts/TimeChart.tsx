/**
 * A small chart of one daily series, as SVG written here (no chart library): bars for counts, a line for rates,
 * a zero-based y axis with nice ticks, day labels thinned to fit. Accessible as an image with a title and a
 * one-sentence description, and as a data table (under "Show data") for anyone who prefers numbers.
 */
import { useId } from 'react';
import { describeSeries, formatValue, shortDay } from '../dashboard-data.ts';
import type { Series } from '../dashboard-data.ts';
import { bandScale, labelEvery, linePath, linearScale, zeroBasedAxis } from './scale.ts';

const width = 560;
const height = 220;
const margin = { top: 12, right: 12, bottom: 28, left: 56 };

export function TimeChart({ series, kind }: { series: Series; kind: 'line' | 'bar' }) {
  const id = useId();
  const titleId = `${id}-title`;
  const descId = `${id}-desc`;
  const values = series.points.map((point) => point.value);
  const axis = zeroBasedAxis(values, 4, series.format === 'percent' ? 1 : undefined);
  const plot = { left: margin.left, right: width - margin.right, top: margin.top, bottom: height - margin.bottom };
  const y = linearScale([axis.min, axis.max], [plot.bottom, plot.top]);
  const band = bandScale(series.points.length, [plot.left, plot.right], kind === 'bar' ? 0.25 : 0);
  const centre = (index: number) => {
    const { x, width: w } = band(index);
    return x + w / 2;
  };
  const every = labelEvery(series.points.length, 8);
  const format = (value: number | null) => formatValue(value, series.format);

  return (
    <figure className="vt-chart">
      <figcaption className="vt-chart-caption">{series.label}</figcaption>
      <svg className={`vt-chart-svg vt-chart--${kind}`} viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby={`${titleId} ${descId}`}>
        <title id={titleId}>{series.label}</title>
        <desc id={descId}>{describeSeries(series)}</desc>
        <g className="vt-chart-grid" aria-hidden="true">
          {axis.ticks.map((tick) => (
            <g key={tick}>
              <line x1={plot.left} x2={plot.right} y1={y(tick)} y2={y(tick)} />
              <text x={plot.left - 6} y={y(tick)} dy="0.32em" textAnchor="end">
                {format(tick)}
              </text>
            </g>
          ))}
        </g>
        <g className="vt-chart-x" aria-hidden="true">
          <line x1={plot.left} x2={plot.right} y1={plot.bottom} y2={plot.bottom} />
          {series.points.map((point, index) =>
            index % every === 0 ? (
              <text key={point.date} x={centre(index)} y={plot.bottom + 18} textAnchor="middle">
                {shortDay(point.date)}
              </text>
            ) : null,
          )}
        </g>
        <g className="vt-chart-data">
          {kind === 'bar'
            ? series.points.map((point, index) => {
                const { x, width: w } = band(index);
                const top = y(point.value ?? 0);
                return (
                  <rect key={point.date} x={x} y={top} width={Math.max(1, w)} height={Math.max(0, plot.bottom - top)}>
                    <title>{`${point.date}: ${format(point.value)}`}</title>
                  </rect>
                );
              })
            : (
              <>
                <path d={linePath(series.points.map((point, index) => ({ x: centre(index), y: point.value === null ? null : y(point.value) })))} />
                {series.points.map((point, index) =>
                  point.value === null ? null : (
                    <circle key={point.date} cx={centre(index)} cy={y(point.value)} r={2.5}>
                      <title>{`${point.date}: ${format(point.value)}`}</title>
                    </circle>
                  ),
                )}
              </>
            )}
        </g>
      </svg>
      <details className="vt-chart-data-table">
        <summary>Show data</summary>
        <table>
          <caption className="vt-sr-only">{series.label} per day</caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{series.label}</th>
            </tr>
          </thead>
          <tbody>
            {series.points.map((point) => (
              <tr key={point.date}>
                <th scope="row">{point.date}</th>
                <td>{format(point.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
