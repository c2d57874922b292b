import { KEYWORDS } from './lexer.ts';
import type { FilterNode } from './types.ts';

/** Text that can stay unquoted: no whitespace, no character the lexer treats specially, not a keyword. */
const SAFE = /^[^\s()"':<>=!\\]+$/;

function quote(text: string): string {
  if (SAFE.test(text) && !KEYWORDS.has(text)) return text;
  return `"${text.replace(/[\\"]/g, '\\$&')}"`;
}

/**
 * Constants have no syntax of their own in Algolia's language (a bare `true` is the tag "true"), so they are
 * written as a tautology and a contradiction that hold for any index.
 */
const TRUE_TEXT = '(_tags:"" OR NOT _tags:"")';
const FALSE_TEXT = '(_tags:"" AND NOT _tags:"")';

/**
 * Canonical `filters` text for a tree: parsing it gives back an equivalent tree (same documents for any
 * source). Used for logs, the `params` echo and tests. A `facet` node on the attribute `_tags` prints as a tag
 * filter, which is what the parser makes of it.
 *
 * Recursive: trees come from the parser (depth-limited) or the list forms (two levels), plus a few ANDs.
 */
export function filterToString(node: FilterNode): string {
  switch (node.kind) {
    case 'facet':
      return `${quote(node.attribute)}:${quote(node.value)}${scoreText(node.score)}`;
    case 'tag':
      return `_tags:${quote(node.value)}${scoreText(node.score)}`;
    case 'numeric':
      return `${quote(node.attribute)} ${node.operator} ${String(node.value)}`;
    case 'range':
      return `${quote(node.attribute)}:${String(node.lower)} TO ${String(node.upper)}`;
    case 'boolean':
      return node.value ? TRUE_TEXT : FALSE_TEXT;
    case 'not':
      return `NOT ${operand(node.child)}`;
    case 'and':
    case 'or': {
      if (node.children.length === 0) return node.kind === 'and' ? TRUE_TEXT : FALSE_TEXT;
      if (node.children.length === 1) return filterToString(node.children[0]);
      const separator = node.kind === 'and' ? ' AND ' : ' OR ';
      return node.children.map(operand).join(separator);
    }
  }
}

function scoreText(score: number | undefined): string {
  return score === undefined ? '' : `<score=${score}>`;
}

/** An operand of AND, OR or NOT: groups of two or more get parentheses, so precedence never matters. */
function operand(node: FilterNode): string {
  // A group of one prints as its child, so parenthesise according to what actually gets printed.
  while ((node.kind === 'and' || node.kind === 'or') && node.children.length === 1) node = node.children[0];
  const text = filterToString(node);
  const grouped = (node.kind === 'and' || node.kind === 'or') && node.children.length > 1;
  return grouped ? `(${text})` : text;
}
