/**
 * An item edited with a form, its JSON kept as the advanced mode. The form is the draft while it can show the
 * item; switching to JSON writes the form's item as text; switching back reads the text into the form, which is
 * refused (with the reasons) while the text says something the form cannot show. An item the form cannot show
 * opens in JSON mode with those reasons.
 */
import { useState } from 'react';
import { parseRecordJson } from '../lib/record-json.ts';
import type { EditorMode } from './form.tsx';

export type Reading<F> = { ok: true; form: F } | { ok: false; reasons: string[] };

export interface FormJsonCodec<T, F> {
  toForm: (item: T) => Reading<F>;
  fromForm: (form: F) => T;
}

type Draft<F> = { mode: 'form'; form: F } | { mode: 'json'; text: string };

export interface FormJsonDraft<T, F> {
  mode: EditorMode;
  /** The form while in form mode. */
  form: F | undefined;
  setForm: (form: F) => void;
  /** The JSON text: as typed in JSON mode, the form's item otherwise. */
  text: string;
  setText: (text: string) => void;
  /** Why the form cannot show the JSON as it stands ('' when it can, or in form mode). */
  formBlocked: string;
  setMode: (mode: EditorMode) => void;
  /** The item to save, or what is wrong with the JSON. */
  current: () => { ok: true; item: T } | { ok: false; reason: string };
}

const pretty = (value: unknown) => JSON.stringify(value, null, 2);

/** What `text` says, read by `toForm`; a text that is no JSON object is no form either. */
function readText<T, F>(codec: FormJsonCodec<T, F>, text: string): Reading<F> {
  const parsed = parseRecordJson(text);
  if (!parsed.ok) return { ok: false, reasons: [parsed.reason] };
  return codec.toForm(parsed.record as T);
}

export function useFormJsonDraft<T, F>(codec: FormJsonCodec<T, F>): [FormJsonDraft<T, F> | undefined, (item: T | undefined) => void, (form: F) => void] {
  const [draft, setDraft] = useState<Draft<F> | undefined>();

  /** Opens an item: in the form when it can show it, else as JSON. */
  const open = (item: T | undefined) => {
    if (item === undefined) return setDraft(undefined);
    const reading = codec.toForm(item);
    setDraft(reading.ok ? { mode: 'form', form: reading.form } : { mode: 'json', text: pretty(item) });
  };
  const openForm = (form: F) => setDraft({ mode: 'form', form });
  if (!draft) return [undefined, open, openForm];

  const reading = draft.mode === 'json' ? readText(codec, draft.text) : undefined;
  const value: FormJsonDraft<T, F> = {
    mode: draft.mode,
    form: draft.mode === 'form' ? draft.form : undefined,
    setForm: (form) => setDraft({ mode: 'form', form }),
    text: draft.mode === 'json' ? draft.text : pretty(codec.fromForm(draft.form)),
    setText: (text) => setDraft({ mode: 'json', text }),
    formBlocked: reading && !reading.ok ? reading.reasons.join('; ') : '',
    setMode: (mode) => {
      if (mode === draft.mode) return;
      if (mode === 'json' && draft.mode === 'form') setDraft({ mode: 'json', text: pretty(codec.fromForm(draft.form)) });
      if (mode === 'form' && reading?.ok) setDraft({ mode: 'form', form: reading.form });
    },
    current: () => {
      if (draft.mode === 'form') return { ok: true, item: codec.fromForm(draft.form) };
      const parsed = parseRecordJson(draft.text);
      return parsed.ok ? { ok: true, item: parsed.record as T } : { ok: false, reason: parsed.reason };
    },
  };
  return [value, open, openForm];
}
