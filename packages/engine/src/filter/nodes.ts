import type { FilterNode } from './types.ts';

/**
 * Node constructors that keep trees flat: `a AND (b AND c)` becomes one AND of three, a group of one is its
 * only child. Flat trees evaluate in fewer passes and print without redundant parentheses.
 * Children are never mutated, so nodes may be shared between trees (a secured key's filter, for instance).
 */
export function andNode(children: FilterNode[]): FilterNode {
  return group('and', children);
}

export function orNode(children: FilterNode[]): FilterNode {
  return group('or', children);
}

function group(kind: 'and' | 'or', children: FilterNode[]): FilterNode {
  if (children.length === 1) return children[0];
  const flat: FilterNode[] = [];
  for (const child of children) {
    // A loop rather than push(...children): spreading a huge group would overflow the argument stack.
    if (child.kind === kind) for (const grandchild of child.children) flat.push(grandchild);
    else flat.push(child);
  }
  return { kind, children: flat };
}

export const TRUE_NODE: FilterNode = Object.freeze({ kind: 'boolean', value: true }) as FilterNode;
export const FALSE_NODE: FilterNode = Object.freeze({ kind: 'boolean', value: false }) as FilterNode;
