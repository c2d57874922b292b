/** The rule form's fields (see rule-form.ts for what they mean and how they become Algolia's JSON). */
import type { ReactNode } from 'react';
import { CheckField, Field, FieldGroup, TextField } from '../../shared/form.tsx';
import { queryMatches } from './rule-form.ts';
import type { FacetAction, QueryMatch, RuleForm } from './rule-form.ts';

/** A list of objectIDs (pinned or hidden results), each removable; pins with their position. */
function PickedList({ name, items, onRemove, position }: { name: string; items: string[]; onRemove: (index: number) => void; position?: (index: number) => ReactNode }) {
  if (items.length === 0) return <p className="vt-admin-empty">None yet.</p>;
  return (
    <ol className="vt-console-list" aria-label={name}>
      {items.map((objectID, index) => (
        <li key={objectID} className="vt-console-inline">
          <span>{objectID}</span>
          {position?.(index)}
          <button type="button" aria-label={`Remove ${objectID} from ${name.toLowerCase()}`} onClick={() => onRemove(index)}>
            Remove
          </button>
        </li>
      ))}
    </ol>
  );
}

function FacetRow({ action, index, onChange, onRemove }: { action: FacetAction; index: number; onChange: (action: FacetAction) => void; onRemove: () => void }) {
  const n = index + 1;
  return (
    <li className="vt-console-inline">
      <select aria-label={`Facet value ${n}: filter or boost`} value={action.mode} onChange={(event) => onChange({ ...action, mode: event.target.value as FacetAction['mode'] })}>
        <option value="filter">Only results with</option>
        <option value="boost">Boost results with</option>
      </select>
      <input aria-label={`Facet value ${n}: facet`} placeholder="facet (brand)" value={action.facet} onChange={(event) => onChange({ ...action, facet: event.target.value })} />
      <input aria-label={`Facet value ${n}: value`} placeholder="value (Acme)" value={action.value} onChange={(event) => onChange({ ...action, value: event.target.value })} />
      {action.mode === 'boost' && (
        <input type="number" min={1} aria-label={`Facet value ${n}: score`} value={action.score} onChange={(event) => onChange({ ...action, score: Math.max(1, Number(event.target.value) || 1) })} />
      )}
      <button type="button" aria-label={`Remove facet value ${n}`} onClick={onRemove}>
        Remove
      </button>
    </li>
  );
}

export function RuleFields({ form, onChange }: { form: RuleForm; onChange: (form: RuleForm) => void }) {
  const set = <K extends keyof RuleForm>(key: K, value: RuleForm[K]) => onChange({ ...form, [key]: value });
  const setBanner = (key: keyof RuleForm['banner'], value: string) => onChange({ ...form, banner: { ...form.banner, [key]: value } });
  return (
    <>
      <FieldGroup legend="Rule">
        <div className="vt-console-row">
          <TextField label="Rule ID" value={form.objectID} onChange={(value) => set('objectID', value)} required />
          <TextField label="Description" value={form.description} onChange={(value) => set('description', value)} />
        </div>
        <CheckField label="Enabled" checked={form.enabled} onChange={(value) => set('enabled', value)} />
      </FieldGroup>
      <FieldGroup legend="When">
        <div className="vt-console-row">
          <Field label="Query condition">
            <select value={form.match} onChange={(event) => set('match', event.target.value as QueryMatch)}>
              {queryMatches.map(({ match, label }) => (
                <option key={match} value={match}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          {form.match !== 'any' && <TextField label="Query text" hint="Empty with “is”: the empty query." value={form.pattern} onChange={(value) => set('pattern', value)} />}
        </div>
        {form.match !== 'any' && <CheckField label="Also match plurals, synonyms and typos" checked={form.alternatives} onChange={(value) => set('alternatives', value)} />}
        <div className="vt-console-row">
          <TextField label="Context" hint="Only searches sent with this rule context (a category page sends category-<slug>); empty: any." value={form.context} onChange={(value) => set('context', value)} />
          <TextField label="With the filter" hint="Only searches with this filter selected (brand:Acme); empty: any." value={form.conditionFilters} onChange={(value) => set('conditionFilters', value)} />
        </div>
      </FieldGroup>
      <FieldGroup legend="Pinned results" hint="Pick them in the preview (Pin), in the order they should come.">
        <PickedList
          name="Pinned results"
          items={form.pins.map((pin) => pin.objectID)}
          onRemove={(index) => set('pins', form.pins.filter((_, i) => i !== index))}
          position={(index) => (
            <label>
              at position{' '}
              <input
                type="number"
                min={0}
                className="vt-console-narrow"
                value={form.pins[index].position}
                onChange={(event) => set('pins', form.pins.map((pin, i) => (i === index ? { ...pin, position: Math.max(0, Number(event.target.value) || 0) } : pin)))}
              />
            </label>
          )}
        />
        <CheckField label="Pinned results must also match the search's filters" checked={form.filterPromotes} onChange={(value) => set('filterPromotes', value)} />
      </FieldGroup>
      <FieldGroup legend="Hidden results" hint="Pick them in the preview (Hide).">
        <PickedList name="Hidden results" items={form.hides} onRemove={(index) => set('hides', form.hides.filter((_, i) => i !== index))} />
      </FieldGroup>
      <FieldGroup legend="Banner" hint="Shown above the results on the shop's search page.">
        <div className="vt-console-row">
          <TextField label="Banner title" value={form.banner.title} onChange={(value) => setBanner('title', value)} />
          <TextField label="Banner text" value={form.banner.text} onChange={(value) => setBanner('text', value)} />
          <TextField label="Banner image" hint="An image URL on this shop (or data:)." value={form.banner.image} onChange={(value) => setBanner('image', value)} />
          <TextField label="Banner link" hint="A page of the shop (/c/…) or an https:// address." value={form.banner.link} onChange={(value) => setBanner('link', value)} />
        </div>
      </FieldGroup>
      <FieldGroup legend="Facet values" hint="Keep only the results with a value, or put them first.">
        <ol className="vt-console-list">
          {form.facetActions.map((action, index) => (
            <FacetRow
              key={index}
              action={action}
              index={index}
              onChange={(changed) => set('facetActions', form.facetActions.map((item, i) => (i === index ? changed : item)))}
              onRemove={() => set('facetActions', form.facetActions.filter((_, i) => i !== index))}
            />
          ))}
        </ol>
        <button type="button" onClick={() => set('facetActions', [...form.facetActions, { facet: '', value: '', mode: 'filter', score: 1 }])}>
          Add a facet value
        </button>
        <TextField label="Filters" hint="Any other filter on the results, in filter syntax (price < 100)." value={form.filters} onChange={(value) => set('filters', value)} />
      </FieldGroup>
      <FieldGroup legend="Query and redirect">
        <div className="vt-console-row">
          <TextField label="Remove words from the query" hint="Comma-separated (sale, cheap)." value={form.removeWords.join(',')} onChange={(value) => set('removeWords', value.split(','))} />
          <TextField label="Redirect to" hint="The shop opens this page instead of the results (/help, https://…)." value={form.redirect} onChange={(value) => set('redirect', value)} />
        </div>
      </FieldGroup>
      <FieldGroup legend="Validity (UTC)" hint="Empty: always.">
        <div className="vt-console-row">
          <Field label="Valid from">
            <input type="datetime-local" value={form.validFrom} onChange={(event) => set('validFrom', event.target.value)} />
          </Field>
          <Field label="Valid until">
            <input type="datetime-local" value={form.validUntil} onChange={(event) => set('validUntil', event.target.value)} />
          </Field>
        </div>
      </FieldGroup>
    </>
  );
}
