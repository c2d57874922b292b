/**
 * The A/B test form's logic, apart from React: a test from two indexes, or from one index whose second variant
 * adds search parameters (JSON); the request the abtesting client sends, or what is wrong with the form; and
 * the figures as the screen shows them.
 */
import type { AddABTestsRequest } from 'algoliasearch';

export interface AbTestForm {
  name: string;
  /** `indexes`: variant B is another index; `params`: the same index with extra search parameters. */
  mode: 'indexes' | 'params';
  indexA: string;
  indexB: string;
  /** Variant B's search parameters, as JSON (mode `params`). */
  params: string;
  /** Variant A's share of the traffic, in percent (B gets the rest). */
  trafficA: string;
  /** How many days the test runs, from now. */
  days: string;
}

export const emptyForm = (indexName: string): AbTestForm => ({ name: '', mode: 'indexes', indexA: indexName, indexB: '', params: '{\n  "filters": ""\n}', trafficA: '50', days: '14' });

const DAY_MS = 86_400_000;

export type FormReading = { ok: true; request: AddABTestsRequest } | { ok: false; problem: string };

/** The request for `addABTests`, or the first thing to fix (the server checks everything again). */
export function requestOf(form: AbTestForm, now: number): FormReading {
  const name = form.name.trim();
  if (name === '') return { ok: false, problem: 'Give the test a name.' };
  const trafficA = Number(form.trafficA);
  if (!Number.isInteger(trafficA) || trafficA < 1 || trafficA > 99) return { ok: false, problem: 'Variant A’s traffic must be a whole percentage from 1 to 99.' };
  const days = Number(form.days);
  if (!Number.isInteger(days) || days < 1 || days > 90) return { ok: false, problem: 'A test runs from 1 to 90 days.' };
  if (form.indexA === '') return { ok: false, problem: 'Choose the index of variant A.' };
  const endAt = new Date(now + days * DAY_MS).toISOString();
  const a = { index: form.indexA, trafficPercentage: trafficA };
  if (form.mode === 'indexes') {
    if (form.indexB === '' || form.indexB === form.indexA) return { ok: false, problem: 'Choose another index for variant B (or test search parameters on one index).' };
    return { ok: true, request: { name, endAt, variants: [a, { index: form.indexB, trafficPercentage: 100 - trafficA }] } };
  }
  let params: unknown;
  try {
    params = JSON.parse(form.params);
  } catch (error) {
    return { ok: false, problem: `Variant B’s search parameters are not valid JSON: ${(error as Error).message}` };
  }
  if (typeof params !== 'object' || params === null || Array.isArray(params) || Object.keys(params).length === 0) {
    return { ok: false, problem: 'Variant B’s search parameters must be a JSON object with at least one parameter, such as {"filters": "stock > 0"}.' };
  }
  const customSearchParameters = params as Record<string, unknown>;
  return { ok: true, request: { name, endAt, variants: [a, { index: form.indexA, trafficPercentage: 100 - trafficA, customSearchParameters }] } };
}

/** A rate as a percentage with one decimal, or a dash when there is nothing to divide by. */
export function percent(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)} %`;
}

/** What a significance means for the merchant. */
export function significanceText(significance: number | null | undefined): string {
  if (significance === null || significance === undefined) return 'Not enough data yet (100 tracked searches per variant)';
  const confidence = `${(significance * 100).toFixed(1)} % confidence`;
  return significance >= 0.95 ? `${confidence}: the difference is significant` : `${confidence}: not significant yet`;
}
