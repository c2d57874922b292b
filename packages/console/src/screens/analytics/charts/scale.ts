/**
 * The arithmetic of the dashboard's charts: a linear scale, "nice" axis ticks (steps of 1, 2 or 5 × 10^k) and a
 * band scale for bars. Pure, unit-tested; the SVG components only draw what these compute.
 */

export type Scale = (value: number) => number;

/** Maps `domain` onto `range` linearly; a zero-width domain maps everything to the start of the range. */
export function linearScale(domain: [number, number], range: [number, number]): Scale {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const span = d1 - d0;
  if (span === 0) return () => r0;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

/** A step of 1, 2 or 5 × 10^k that cuts `span` into about `count` parts. */
export function niceStep(span: number, count: number): number {
  if (!(span > 0) || !(count > 0)) return 1;
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

export interface Axis {
  /** The domain, widened to whole steps (`min` ≤ every value ≤ `max`). */
  min: number;
  max: number;
  ticks: number[];
}

/**
 * An axis from 0 (charts of counts and rates start at zero, so bar heights compare) up to the first step at or
 * above the largest value. An all-zero or empty series still gets a 0–1 axis, so the chart has a scale.
 */
export function zeroBasedAxis(values: ReadonlyArray<number | null>, count = 4, ceiling?: number): Axis {
  const finite = values.filter((value): value is number => value !== null && Number.isFinite(value));
  let top = Math.max(0, ...finite);
  if (ceiling !== undefined) top = Math.min(top, ceiling);
  // Below a billionth nothing shows on a chart: treat it as zero rather than chase ticks into denormals.
  if (top < 1e-9) top = ceiling !== undefined ? Math.min(1, ceiling) : 1;
  const step = niceStep(top, count);
  const max = Math.ceil(top / step - 1e-9) * step;
  const ticks: number[] = [];
  // Rounded to the step's precision: 0.1 + 0.2 must print as 0.3.
  const decimals = Math.min(20, Math.max(0, -Math.floor(Math.log10(step))));
  for (let tick = 0; tick <= max + step / 2; tick += step) ticks.push(Number(tick.toFixed(decimals)));
  return { min: 0, max: ticks[ticks.length - 1], ticks };
}

export interface Band {
  x: number;
  width: number;
}

/** `n` equal bands across `range`, each leaving `padding` (0–1) of its width empty, half on each side. */
export function bandScale(n: number, range: [number, number], padding = 0.2): (index: number) => Band {
  const [r0, r1] = range;
  const step = n > 0 ? (r1 - r0) / n : 0;
  const width = step * (1 - padding);
  return (index) => ({ x: r0 + index * step + (step - width) / 2, width });
}

/** Every how many labels to print so at most `max` fit on the axis (1 = all). */
export function labelEvery(count: number, max: number): number {
  return count <= max ? 1 : Math.ceil(count / max);
}

/**
 * An SVG path through the points, broken where a value is missing (a day without tracked searches has no rate:
 * drawing a line through it would invent one).
 */
export function linePath(points: ReadonlyArray<{ x: number; y: number | null }>): string {
  let path = '';
  let drawing = false;
  for (const point of points) {
    if (point.y === null) {
      drawing = false;
      continue;
    }
    path += `${drawing ? 'L' : 'M'}${round(point.x)},${round(point.y)}`;
    drawing = true;
  }
  return path;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
