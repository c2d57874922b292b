/**
 * The rule form: what most merchandising rules are, as fields. When the query is / contains / starts or ends
 * with a text (or any query), in a context, with a filter; then pin or hide results, remove words from the
 * query, show a banner (the `userData` the storefront shows above the results), filter or boost facet values,
 * redirect to a page (`renderingContent.redirect`, which the storefront follows), within a validity period.
 *
 * `ruleToForm` reads a rule into the form, or says why it cannot (several conditions, a group of pinned results,
 * userData that is not a banner…): such a rule is edited as JSON. A rule the form reads is one it writes back
 * as it came (`sameJson`), so switching between the form and the JSON never changes a rule by itself.
 */
import type { Condition, Consequence, ConsequenceParams, Rule } from 'algoliasearch';
import { sameJson, withoutServerFields } from '../../lib/canonical.ts';

export type QueryMatch = 'any' | 'is' | 'contains' | 'startsWith' | 'endsWith';

export const queryMatches: Array<{ match: QueryMatch; label: string }> = [
  { match: 'is', label: 'the query is' },
  { match: 'contains', label: 'the query contains' },
  { match: 'startsWith', label: 'the query starts with' },
  { match: 'endsWith', label: 'the query ends with' },
  { match: 'any', label: 'any query (context or filter only)' },
];

export interface FacetAction {
  facet: string;
  value: string;
  /** `filter`: only results with this value. `boost`: results with it first (optionalFilters), by `score`. */
  mode: 'filter' | 'boost';
  score: number;
}

export interface Banner {
  title: string;
  text: string;
  image: string;
  link: string;
}

export interface RuleForm {
  objectID: string;
  description: string;
  enabled: boolean;
  match: QueryMatch;
  pattern: string;
  /** The pattern also matches plurals, synonyms and typos. */
  alternatives: boolean;
  context: string;
  /** Filters the search must have for the rule to apply (`brand:Acme`). */
  conditionFilters: string;
  removeWords: string[];
  pins: Array<{ objectID: string; position: number }>;
  /** Pinned results must also match the search's filters. */
  filterPromotes: boolean;
  hides: string[];
  banner: Banner;
  facetActions: FacetAction[];
  /** Extra filters for the results (filter syntax). */
  filters: string;
  redirect: string;
  /** `YYYY-MM-DDTHH:mm` in UTC, or empty. */
  validFrom: string;
  validUntil: string;
}

export const emptyBanner: Banner = { title: '', text: '', image: '', link: '' };

export function emptyRuleForm(objectID: string, query: string): RuleForm {
  return {
    objectID, description: '', enabled: true, match: 'is', pattern: query, alternatives: false, context: '', conditionFilters: '',
    removeWords: [], pins: [], filterPromotes: false, hides: [], banner: emptyBanner, facetActions: [], filters: '', redirect: '',
    validFrom: '', validUntil: '',
  };
}

export type RuleReading = { ok: true; form: RuleForm } | { ok: false; reasons: string[] };

const ruleKeys = new Set(['objectID', 'conditions', 'consequence', 'description', 'enabled', 'validity']);
const conditionKeys = new Set(['pattern', 'anchoring', 'alternatives', 'context', 'filters']);
const consequenceKeys = new Set(['params', 'promote', 'hide', 'userData', 'filterPromotes']);
const paramKeys = new Set(['query', 'filters', 'facetFilters', 'optionalFilters', 'renderingContent']);
const bannerKeys = new Set(['type', 'title', 'text', 'image', 'link']);
const scoreSuffix = /<score=(\d+)>$/;

const extraKeys = (value: object, allowed: Set<string>) => Object.keys(value).filter((key) => !allowed.has(key));

/** `YYYY-MM-DDTHH:mm` (UTC) ↔ seconds since the epoch, as Algolia's validity ranges count. */
export function minuteToSeconds(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(text)) return undefined;
  const ms = Date.parse(`${text}:00Z`);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}

export function secondsToMinute(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 16);
}

function readFacet(text: string, mode: FacetAction['mode']): FacetAction | undefined {
  const score = mode === 'boost' ? scoreSuffix.exec(text) : null;
  const body = score ? text.slice(0, score.index) : text;
  const colon = body.indexOf(':');
  if (colon <= 0) return undefined;
  return { facet: body.slice(0, colon), value: body.slice(colon + 1), mode, score: score ? Number(score[1]) : 1 };
}

function readFacets(value: unknown, mode: FacetAction['mode'], name: string, reasons: string[]): FacetAction[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
    reasons.push(`its ${name} are not a flat list of "facet:value" (the form writes no OR groups)`);
    return [];
  }
  const actions = value.map((item: string) => readFacet(item, mode));
  if (actions.some((action) => action === undefined)) reasons.push(`one of its ${name} is not "facet:value"`);
  return actions.filter((action): action is FacetAction => action !== undefined);
}

function readCondition(condition: Condition, form: RuleForm, reasons: string[]): void {
  const extra = extraKeys(condition, conditionKeys);
  if (extra.length) reasons.push(`its condition has ${extra.join(', ')}`);
  if (condition.pattern !== undefined || condition.anchoring !== undefined) {
    if (condition.pattern === undefined || condition.anchoring === undefined) reasons.push('its condition has a pattern without anchoring, or the reverse');
    form.match = condition.anchoring ?? 'is';
    form.pattern = condition.pattern ?? '';
  } else {
    form.match = 'any';
    form.pattern = '';
  }
  form.alternatives = condition.alternatives === true;
  form.context = condition.context ?? '';
  form.conditionFilters = condition.filters ?? '';
}

function readParams(params: ConsequenceParams, form: RuleForm, reasons: string[]): void {
  const extra = extraKeys(params, paramKeys);
  if (extra.length) reasons.push(`it sets the search parameters ${extra.join(', ')}`);
  const { query } = params;
  if (typeof query === 'string') reasons.push('it replaces the whole query');
  else if (query) {
    const edits = query.edits ?? [];
    if (edits.some((edit) => edit.type !== 'remove' || typeof edit.delete !== 'string' || edit.insert !== undefined)) reasons.push('it replaces words of the query');
    if (query.edits && query.remove) reasons.push('it removes words in two ways (edits and remove)');
    form.removeWords = query.remove ?? edits.map((edit) => edit.delete ?? '');
  }
  if (typeof params.filters === 'string') form.filters = params.filters;
  if (params.facetFilters !== undefined) form.facetActions.push(...readFacets(params.facetFilters, 'filter', 'facet filters', reasons));
  if (params.optionalFilters !== undefined) form.facetActions.push(...readFacets(params.optionalFilters, 'boost', 'optional filters', reasons));
  const rendering = params.renderingContent;
  if (rendering) {
    const other = Object.keys(rendering).filter((key) => key !== 'redirect');
    if (other.length) reasons.push(`it sets renderingContent.${other.join(', renderingContent.')}`);
    const url = (rendering as { redirect?: { url?: unknown } }).redirect?.url;
    if (typeof url === 'string') form.redirect = url;
  }
}

function readConsequence(consequence: Consequence, form: RuleForm, reasons: string[]): void {
  const extra = extraKeys(consequence, consequenceKeys);
  if (extra.length) reasons.push(`its consequence has ${extra.join(', ')}`);
  for (const promote of consequence.promote ?? []) {
    if ('objectID' in promote) form.pins.push({ objectID: promote.objectID, position: promote.position });
    else reasons.push('it pins a group of results together (objectIDs)');
  }
  form.filterPromotes = consequence.filterPromotes === true;
  form.hides = (consequence.hide ?? []).map((hide) => hide.objectID);
  const { userData } = consequence;
  if (userData !== undefined) {
    const fields = userData as Record<string, unknown>;
    const isBanner = typeof userData === 'object' && userData !== null && !Array.isArray(userData) && fields.type === 'banner';
    if (!isBanner || extraKeys(fields, bannerKeys).length || Object.values(fields).some((value) => typeof value !== 'string')) {
      reasons.push('its userData is not a banner (type, title, text, image, link)');
    } else {
      form.banner = { title: String(fields.title ?? ''), text: String(fields.text ?? ''), image: String(fields.image ?? ''), link: String(fields.link ?? '') };
    }
  }
  if (consequence.params) readParams(consequence.params, form, reasons);
}

/** The form of a rule, or why the form cannot show it. */
export function ruleToForm(input: Rule): RuleReading {
  const rule = withoutServerFields(input);
  const reasons: string[] = [];
  const form = emptyRuleForm(rule.objectID, '');
  form.match = 'any';
  const extra = extraKeys(rule, ruleKeys);
  if (extra.length) reasons.push(`it has ${extra.join(', ')}`);
  form.description = rule.description ?? '';
  form.enabled = rule.enabled !== false;
  const conditions = rule.conditions ?? [];
  if (conditions.length > 1) reasons.push(`it has ${conditions.length} conditions (the form edits one)`);
  if (conditions[0]) readCondition(conditions[0], form, reasons);
  readConsequence(rule.consequence ?? {}, form, reasons);
  const validity = rule.validity ?? [];
  if (validity.length > 1) reasons.push(`it has ${validity.length} validity periods (the form edits one)`);
  if (validity[0]) {
    const { from, until } = validity[0];
    if ((from !== undefined && from % 60 !== 0) || (until !== undefined && until % 60 !== 0)) reasons.push('its validity does not start and end on a whole minute');
    form.validFrom = from === undefined ? '' : secondsToMinute(from);
    form.validUntil = until === undefined ? '' : secondsToMinute(until);
  }
  if (reasons.length === 0 && !sameJson(formToRule(form), rule)) reasons.push('the form would write it differently');
  return reasons.length ? { ok: false, reasons } : { ok: true, form };
}

function facetText(action: FacetAction): string {
  const text = `${action.facet.trim()}:${action.value.trim()}`;
  return action.mode === 'boost' && action.score !== 1 ? `${text}<score=${action.score}>` : text;
}

/** The rule the form describes, as Algolia's JSON (only what the form sets). */
export function formToRule(form: RuleForm): Rule {
  const condition: Condition = {};
  if (form.match !== 'any') {
    condition.pattern = form.pattern;
    condition.anchoring = form.match;
    if (form.alternatives) condition.alternatives = true;
  }
  if (form.context.trim()) condition.context = form.context.trim();
  if (form.conditionFilters.trim()) condition.filters = form.conditionFilters.trim();

  const params: ConsequenceParams = {};
  const removeWords = form.removeWords.map((word) => word.trim()).filter(Boolean);
  if (removeWords.length) params.query = { edits: removeWords.map((word) => ({ type: 'remove' as const, delete: word })) };
  if (form.filters.trim()) params.filters = form.filters.trim();
  const actions = form.facetActions.filter((action) => action.facet.trim() && action.value.trim());
  const filters = actions.filter((action) => action.mode === 'filter').map(facetText);
  const boosts = actions.filter((action) => action.mode === 'boost').map(facetText);
  if (filters.length) params.facetFilters = filters;
  if (boosts.length) params.optionalFilters = boosts;
  if (form.redirect.trim()) params.renderingContent = { redirect: { url: form.redirect.trim() } } as ConsequenceParams['renderingContent'];

  const consequence: Consequence = {};
  if (Object.keys(params).length) consequence.params = params;
  const pins = form.pins.filter((pin) => pin.objectID.trim());
  if (pins.length) consequence.promote = pins.map((pin) => ({ objectID: pin.objectID.trim(), position: pin.position }));
  if (form.filterPromotes) consequence.filterPromotes = true;
  const hides = form.hides.map((objectID) => objectID.trim()).filter(Boolean);
  if (hides.length) consequence.hide = hides.map((objectID) => ({ objectID }));
  const banner = Object.fromEntries(Object.entries(form.banner).map(([key, value]) => [key, value.trim()]).filter(([, value]) => value !== ''));
  if (Object.keys(banner).length) consequence.userData = { type: 'banner', ...banner };

  const rule: Rule = { objectID: form.objectID.trim(), consequence };
  if (Object.keys(condition).length) rule.conditions = [condition];
  if (form.description.trim()) rule.description = form.description.trim();
  if (!form.enabled) rule.enabled = false;
  const from = form.validFrom ? minuteToSeconds(form.validFrom) : undefined;
  const until = form.validUntil ? minuteToSeconds(form.validUntil) : undefined;
  if (from !== undefined || until !== undefined) rule.validity = [{ ...(from !== undefined ? { from } : {}), ...(until !== undefined ? { until } : {}) }];
  return rule;
}

/** What is wrong with the form before it is saved (the server checks the rest). */
export function formProblem(form: RuleForm): string {
  if (!form.objectID.trim()) return 'A rule needs an objectID.';
  if (form.validFrom && minuteToSeconds(form.validFrom) === undefined) return 'The start of the validity period is not a date and time.';
  if (form.validUntil && minuteToSeconds(form.validUntil) === undefined) return 'The end of the validity period is not a date and time.';
  const from = minuteToSeconds(form.validFrom);
  const until = minuteToSeconds(form.validUntil);
  if (from !== undefined && until !== undefined && until <= from) return 'The validity period ends before it starts.';
  return '';
}

/** Adds a pin (after the others) or a hide of a result picked in the preview; a result pinned already keeps its place. */
export function withPicked(form: RuleForm, objectID: string, action: 'pin' | 'hide'): RuleForm {
  if (action === 'hide') return { ...form, hides: [...form.hides.filter((id) => id !== objectID), objectID], pins: form.pins.filter((pin) => pin.objectID !== objectID) };
  if (form.pins.some((pin) => pin.objectID === objectID)) return form;
  return { ...form, pins: [...form.pins, { objectID, position: form.pins.length }], hides: form.hides.filter((id) => id !== objectID) };
}
