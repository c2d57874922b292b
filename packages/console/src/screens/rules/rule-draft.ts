/** Rules drafted from the console's preview: a rule for the typed query, and pins or hides added by a click. */
import type { Rule } from 'algoliasearch';

/** A rule that applies when the query is exactly `query`, with nothing pinned or hidden yet. */
export function newRule(query: string): Rule {
  return { objectID: `rule-${Date.now()}`, conditions: [{ pattern: query, anchoring: 'is' }], consequence: { promote: [], hide: [] }, description: '' };
}

/** Adds a hide of `objectID`, or a pin after the rule's other pins (a result pinned already keeps its place). */
export function withResult(rule: Rule, objectID: string, action: 'pin' | 'hide'): Rule {
  const consequence = rule.consequence ?? {};
  if (action === 'hide') {
    const hide = (consequence.hide ?? []).filter((item) => item.objectID !== objectID);
    return { ...rule, consequence: { ...consequence, hide: [...hide, { objectID }] } };
  }
  const promote = consequence.promote ?? [];
  if (promote.some((item) => 'objectID' in item && item.objectID === objectID)) return rule;
  return { ...rule, consequence: { ...consequence, promote: [...promote, { objectID, position: promote.length }] } };
}
