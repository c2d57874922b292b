import { describe, expect, it } from 'vitest';
import type { SynonymHit } from 'algoliasearch';
import { fieldLabels, formToSynonym, synonymProblem, synonymToForm } from './synonym-form.ts';

describe('the synonym form', () => {
  it('reads and writes each type with its own fields', () => {
    const synonyms: SynonymHit[] = [
      { objectID: 'a', type: 'synonym', synonyms: ['sofa', 'couch', 'settee'] },
      { objectID: 'b', type: 'onewaysynonym', input: 'phone', synonyms: ['smartphone', 'mobile'] },
      { objectID: 'c', type: 'altcorrection1', word: 'tshirt', corrections: ['t-shirt'] },
      { objectID: 'd', type: 'altcorrection2', word: 'jewelery', corrections: ['jewelry'] },
      { objectID: 'e', type: 'placeholder', placeholder: '<size>', replacements: ['small', 'large'] },
    ];
    for (const synonym of synonyms) {
      const reading = synonymToForm(synonym);
      expect(reading.ok, synonym.type).toBe(true);
      if (reading.ok) expect(formToSynonym(reading.form)).toEqual(synonym);
    }
    expect(synonymToForm(synonyms[1])).toEqual({ ok: true, form: { objectID: 'b', type: 'onewaysynonym', input: 'phone', words: 'smartphone, mobile' } });
    expect(fieldLabels('onewaysynonym')).toEqual({ input: 'Input', words: 'Synonyms (comma-separated)' });
    expect(fieldLabels('synonym')).toEqual({ words: 'Synonyms (comma-separated)' });
    expect(fieldLabels('placeholder')).toEqual({ input: 'Placeholder', words: 'Replacements (comma-separated)' });
  });

  it('trims what was typed and drops empty words', () => {
    expect(formToSynonym({ objectID: ' s ', type: 'onewaysynonym', input: ' tv ', words: 'television, , telly ,' })).toEqual({
      objectID: 's', type: 'onewaysynonym', input: 'tv', synonyms: ['television', 'telly'],
    });
  });

  it('says why a synonym stays JSON: a word with a comma, a field of another type', () => {
    expect(synonymToForm({ objectID: 'a', type: 'synonym', synonyms: ['1,5 l', 'litre and a half'] })).toEqual({ ok: false, reasons: ['one of its words holds a comma, which the form separates words with'] });
    expect(synonymToForm({ objectID: 'a', type: 'synonym', synonyms: ['a', 'b'], input: 'c' })).toEqual({ ok: false, reasons: ['a synonym has no input'] });
    expect(synonymToForm({ objectID: 'a', type: 'synonym', synonyms: ['a', ' b'] })).toEqual({ ok: false, reasons: ['the form would write it differently'] });
    expect(synonymToForm({ objectID: 'a', type: 'oneWaySynonym', input: 'a', synonyms: ['b'] })).toEqual({ ok: false, reasons: ['its type "oneWaySynonym" is not one the form knows'] });
    // What the server adds is not the operator's: highlighting is left out.
    expect(synonymToForm({ objectID: 'a', type: 'synonym', synonyms: ['a', 'b'], _highlightResult: {} } as SynonymHit).ok).toBe(true);
  });

  it('refuses a form missing its input or words', () => {
    expect(synonymProblem({ objectID: 'a', type: 'synonym', input: '', words: 'sofa' })).toBe('Two-way synonyms need at least two words.');
    expect(synonymProblem({ objectID: 'a', type: 'onewaysynonym', input: '', words: 'x' })).toBe('The input is missing.');
    expect(synonymProblem({ objectID: 'a', type: 'placeholder', input: '<n>', words: '' })).toBe('Give at least one word.');
    expect(synonymProblem({ objectID: 'a', type: 'altcorrection1', input: 'tshirt', words: 't-shirt' })).toBe('');
  });
});
