import { describe, expect, it } from 'vitest';
import { newRule, withResult } from './rule-draft.ts';

describe('rule drafts', () => {
  it('starts a rule for exactly the typed query', () => {
    expect(newRule('lamp').conditions).toEqual([{ pattern: 'lamp', anchoring: 'is' }]);
  });

  it('pins results one after another, keeps a pinned one in place, and hides without duplicates', () => {
    let rule = newRule('lamp');
    rule = withResult(rule, 'a', 'pin');
    rule = withResult(rule, 'b', 'pin');
    rule = withResult(rule, 'a', 'pin');
    expect(rule.consequence?.promote).toEqual([{ objectID: 'a', position: 0 }, { objectID: 'b', position: 1 }]);
    rule = withResult(withResult(rule, 'c', 'hide'), 'c', 'hide');
    expect(rule.consequence?.hide).toEqual([{ objectID: 'c' }]);
  });
});
