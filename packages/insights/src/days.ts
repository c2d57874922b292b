/**
 * Days, analytics tags and filter conditions as the rollups store them. Days are UTC day numbers (days since the
 * epoch); a search's tags are one key `|a|b|` (sorted, deduplicated, '' for none) so that a `tags` expression of
 * the Analytics API (`mobile`, `mobile OR tablet`, `(mobile OR tablet) AND eu`) becomes a WHERE clause.
 */
import { buildFilterNode } from '@vitrine/engine';
import type { FilterNode } from '@vitrine/engine';
import type { FilterList, FilterOperator } from '@vitrine/protocol';
import { DAY_MS } from './deps.ts';
import { invalidParameter } from './errors.ts';

export function dayOf(ts: number): number {
  return Math.floor(ts / DAY_MS);
}

export function dayString(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD` to a day number, or undefined when malformed. */
export function parseDay(text: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return undefined;
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms) || dayString(ms / DAY_MS) !== text) return undefined;
  return ms / DAY_MS;
}

/** Queries are counted case-insensitively, with runs of spaces folded, as one query. */
export function normalizeQuery(query: string): string {
  return query.trim().replace(/\s+/g, ' ').toLowerCase();
}

export function tagsKey(tags: readonly string[] | undefined): string {
  if (!tags || tags.length === 0) return '';
  const unique = [...new Set(tags.filter((tag) => typeof tag === 'string' && tag !== ''))].sort();
  return unique.length === 0 ? '' : `|${unique.join('|')}|`;
}

const MAX_TAG_TERMS = 100;
const MAX_TAG_DEPTH = 32;

/**
 * A `tags` expression as SQL over the `tags` column: terms joined by AND / OR (AND binds tighter), with
 * parentheses. Returns the clause and its parameters.
 */
export function tagsClause(expression: string | undefined): { sql: string; params: string[] } {
  if (expression === undefined || expression.trim() === '') return { sql: '1', params: [] };
  const tokens = expression.match(/\(|\)|[^\s()]+/g) ?? [];
  // Caps: SQLite refuses expressions deeper than 1000 (a long chain of terms is that deep), and the parser
  // below recurses per parenthesis. Past them the caller gets a 400, never a failed query.
  const terms = tokens.filter((token) => token !== '(' && token !== ')' && token !== 'AND' && token !== 'OR').length;
  if (terms > MAX_TAG_TERMS) throw invalidParameter('tags', `at most ${MAX_TAG_TERMS} tags per expression`);
  const params: string[] = [];
  let position = 0;
  let depth = 0;
  const bad = (): never => {
    throw invalidParameter('tags', 'expected tags joined by AND / OR, with balanced parentheses');
  };
  const primary = (): string => {
    const token = tokens[position++];
    if (token === undefined || token === ')' || token === 'AND' || token === 'OR') return bad();
    if (token === '(') {
      if (++depth > MAX_TAG_DEPTH) throw invalidParameter('tags', `at most ${MAX_TAG_DEPTH} levels of parentheses`);
      const inner = or();
      if (tokens[position++] !== ')') bad();
      depth--;
      return `(${inner})`;
    }
    params.push(`|${token}|`);
    return 'instr(tags, ?) > 0';
  };
  const and = (): string => {
    const parts = [primary()];
    while (tokens[position] === 'AND') {
      position++;
      parts.push(primary());
    }
    return parts.join(' AND ');
  };
  const or = (): string => {
    const parts = [and()];
    while (tokens[position] === 'OR') {
      position++;
      parts.push(and());
    }
    return parts.length > 1 ? `(${parts.join(' OR ')})` : parts[0];
  };
  const sql = or();
  if (position !== tokens.length) bad();
  return { sql, params };
}

export interface FilterCondition {
  attribute: string;
  operator: FilterOperator;
  value: string;
}

function collect(node: FilterNode, out: FilterCondition[]): void {
  switch (node.kind) {
    case 'and':
    case 'or':
      for (const child of node.children) collect(child, out);
      return;
    case 'facet':
      out.push({ attribute: node.attribute, operator: ':', value: node.value });
      return;
    case 'tag':
      out.push({ attribute: '_tags', operator: ':', value: node.value });
      return;
    case 'numeric':
      out.push({ attribute: node.attribute, operator: node.operator, value: String(node.value) });
      return;
    case 'range':
      out.push({ attribute: node.attribute, operator: ':', value: `${node.lower} TO ${node.upper}` });
      return;
    default:
      // Negations and constants are not "applied filters" in the analytics sense.
      return;
  }
}

/** The conditions a search applied (filters, facetFilters, numericFilters), deduplicated; [] when unparsable. */
export function appliedFilters(params: { filters?: string; facetFilters?: FilterList; numericFilters?: FilterList }): FilterCondition[] {
  let node: FilterNode | null;
  try {
    node = buildFilterNode({ filters: params.filters, facetFilters: params.facetFilters, numericFilters: params.numericFilters } as Parameters<typeof buildFilterNode>[0]);
  } catch {
    return [];
  }
  if (!node) return [];
  const out: FilterCondition[] = [];
  collect(node, out);
  const seen = new Set<string>();
  return out.filter((c) => {
    const key = `${c.attribute}\u0000${c.operator}\u0000${c.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
