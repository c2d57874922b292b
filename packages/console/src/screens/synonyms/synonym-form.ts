/**
 * The synonym form: a type and, by type, the words. Two-way ("regular": every word finds the others), one-way
 * (the input also finds the synonyms), alternative corrections (a word also finds its corrections, counted as 1
 * or 2 typos), placeholders (a token in records that stands for any of its replacements).
 *
 * `synonymToForm` reads a synonym into the form, or says why it cannot (a word holding a comma, a field of
 * another type): such a synonym is edited as JSON. What the form reads, it writes back as it came.
 */
import type { SynonymHit, SynonymType } from 'algoliasearch';
import { sameJson, splitList, withoutServerFields } from '../../lib/canonical.ts';

export const synonymTypes: Array<{ type: FormType; label: string }> = [
  { type: 'synonym', label: 'Two-way: all words are equivalent' },
  { type: 'onewaysynonym', label: 'One-way: the input also finds the synonyms' },
  { type: 'altcorrection1', label: 'Alternative correction (1 typo)' },
  { type: 'altcorrection2', label: 'Alternative correction (2 typos)' },
  { type: 'placeholder', label: 'Placeholder' },
];

export interface SynonymForm {
  objectID: string;
  type: FormType;
  /** The one-way input, the corrected word, or the placeholder token; unused by two-way synonyms. */
  input: string;
  /** Comma-separated: the synonyms, corrections or replacements. */
  words: string;
}

export type SynonymReading = { ok: true; form: SynonymForm } | { ok: false; reasons: string[] };

type FormType = 'synonym' | 'onewaysynonym' | 'altcorrection1' | 'altcorrection2' | 'placeholder';

/** The fields each type uses: the single word (if any), then the list. (The camel-case spellings stay JSON.) */
const fieldsOf: Record<FormType, { single?: 'input' | 'word' | 'placeholder'; list: 'synonyms' | 'corrections' | 'replacements' }> = {
  synonym: { list: 'synonyms' },
  onewaysynonym: { single: 'input', list: 'synonyms' },
  altcorrection1: { single: 'word', list: 'corrections' },
  altcorrection2: { single: 'word', list: 'corrections' },
  placeholder: { single: 'placeholder', list: 'replacements' },
};

/** The labels of the form's two text fields for a type. */
export function fieldLabels(type: FormType): { input?: string; words: string } {
  const { single, list } = fieldsOf[type];
  const input = single === 'input' ? 'Input' : single === 'word' ? 'Word' : single === 'placeholder' ? 'Placeholder' : undefined;
  const words = list === 'replacements' ? 'Replacements' : list === 'corrections' ? 'Corrections' : 'Synonyms';
  return { ...(input ? { input } : {}), words: `${words} (comma-separated)` };
}

export function synonymToForm(input: SynonymHit): SynonymReading {
  const hit = withoutServerFields(input);
  const fields = (fieldsOf as Partial<Record<SynonymType, (typeof fieldsOf)[FormType]>>)[hit.type];
  if (!fields) return { ok: false, reasons: [`its type "${String(hit.type)}" is not one the form knows`] };
  const reasons: string[] = [];
  const allowed = new Set(['objectID', 'type', fields.list, ...(fields.single ? [fields.single] : [])]);
  const extra = Object.keys(hit).filter((key) => !allowed.has(key));
  if (extra.length) reasons.push(`a ${hit.type} has no ${extra.join(', ')}`);
  const words = (hit[fields.list] ?? []) as string[];
  if (words.some((word) => word.includes(','))) reasons.push('one of its words holds a comma, which the form separates words with');
  const form: SynonymForm = { objectID: hit.objectID, type: hit.type as FormType, input: fields.single ? String(hit[fields.single] ?? '') : '', words: words.join(', ') };
  if (reasons.length === 0 && !sameJson(formToSynonym(form), hit)) reasons.push('the form would write it differently');
  return reasons.length ? { ok: false, reasons } : { ok: true, form };
}

export function formToSynonym(form: SynonymForm): SynonymHit {
  const { single, list } = fieldsOf[form.type];
  const synonym: SynonymHit = { objectID: form.objectID.trim(), type: form.type };
  if (single) synonym[single] = form.input.trim();
  synonym[list] = splitList(form.words);
  return synonym;
}

/** What is wrong with the form before it is saved. */
export function synonymProblem(form: SynonymForm): string {
  if (!form.objectID.trim()) return 'A synonym needs an objectID.';
  const { single } = fieldsOf[form.type];
  if (single && !form.input.trim()) return `The ${fieldLabels(form.type).input?.toLowerCase()} is missing.`;
  const words = splitList(form.words);
  if (words.length < (form.type === 'synonym' ? 2 : 1)) return form.type === 'synonym' ? 'Two-way synonyms need at least two words.' : 'Give at least one word.';
  return '';
}

/** What a synonym says, in one line for the list. */
export function synonymSummary(hit: SynonymHit): string {
  if (hit.type === 'onewaysynonym') return `${hit.input} → ${hit.synonyms?.join(', ')}`;
  if (hit.type === 'altcorrection1' || hit.type === 'altcorrection2') return `${hit.word} → ${hit.corrections?.join(', ')}`;
  if (hit.type === 'placeholder') return `${hit.placeholder} = ${hit.replacements?.join(', ')}`;
  return hit.synonyms?.join(' = ') ?? '';
}
