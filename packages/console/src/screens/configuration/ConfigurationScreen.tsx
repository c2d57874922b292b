/**
 * Configuration: the settings that shape relevance and facets, each with a one-line explanation, saved together
 * as one settings task; replicas' sort orders are saved on the replicas once the primary's task is published.
 */
import { useEffect, useState } from 'react';
import type { ReactNode } from 'react';
import { can, describeError, statusOf } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { ListEditor } from './ListEditor.tsx';
import { formToSettings, listModifiers, replicaSortOf, replicaSortSettings, settingsToForm } from './settings-form.ts';
import type { ListField, SettingsForm } from './settings-form.ts';
import { publish } from '../../api/tasks.ts';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { Screen } from '../../shared/Screen.tsx';

type Sort = { attribute: string; direction: 'asc' | 'desc' };

const lists: Array<{ field: ListField; label: string; help: string }> = [
  { field: 'searchableAttributes', label: 'Searchable attributes', help: 'Where a query is looked for, most important first; "unordered" ignores the position of the match within the attribute.' },
  { field: 'attributesForFaceting', label: 'Attributes for faceting', help: 'Attributes to filter and count on; "searchable" lets shoppers search the values, "filterOnly" filters without counts.' },
  { field: 'customRanking', label: 'Custom ranking', help: 'Business metrics that order equally relevant records (e.g. desc popularity).' },
  { field: 'ranking', label: 'Ranking criteria', help: 'The order in which the ranking criteria break ties; asc(attr)/desc(attr) first makes a sort.' },
  { field: 'attributesToHighlight', label: 'Attributes to highlight', help: 'Attributes returned with the matched words wrapped in the highlight tags.' },
  { field: 'replicas', label: 'Replicas', help: 'Copies of the index sorted another way: standard (exact sort) or virtual (sort within relevance).' },
];

function Field({ label, help, children }: { label: string; help: string; children: ReactNode }) {
  return (
    <div className="vt-console-field">
      <span>{label}</span>
      <small className="vt-admin-hint">{help}</small>
      {children}
    </div>
  );
}

export default function ConfigurationScreen() {
  const { client, access, indexName, reloadIndexNames } = useConsole();
  const [form, setForm] = useState<SettingsForm | undefined>();
  const [sorts, setSorts] = useState<Record<string, Sort>>({});
  const [loadError, setLoadError] = useState('');
  const [outcome, run] = useAction();
  const editable = can(access, 'editSettings');

  useEffect(() => {
    let current = true;
    setForm(undefined);
    setLoadError('');
    client.getSettings({ indexName }).then(
      async (settings) => {
        if (!current) return;
        const loaded = settingsToForm(settings);
        setForm(loaded);
        const entries = await Promise.all(
          loaded.lists.replicas.map(async (row) => {
            const replica = await client.getSettings({ indexName: row.value }).catch(() => ({}));
            return [row.value, replicaSortOf(row.modifier === 'virtual', replica)] as const;
          }),
        );
        if (current) setSorts(Object.fromEntries(entries.filter((entry): entry is readonly [string, Sort] => entry[1] !== undefined)));
      },
      (error: unknown) => {
        if (!current) return;
        // A new index has no settings yet: start from the defaults.
        if (statusOf(error) === 404) setForm(settingsToForm({}));
        else setLoadError(describeError(error, 'read the settings', 'settings'));
      },
    );
    return () => {
      current = false;
    };
  }, [client, indexName]);

  if (loadError) return <Screen title="Configuration" intro="">{<ErrorAlert message={loadError} />}</Screen>;
  if (!form) return <p className="vt-loading">Loading settings…</p>;

  const update = (patch: Partial<SettingsForm>) => setForm({ ...form, ...patch });
  const save = () =>
    run({ action: 'change settings', acl: 'editSettings', busy: 'Saving settings… (waiting for the task to be published)', done: 'Settings saved and published.' }, async () => {
      const { taskID } = await client.setSettings({ indexName, indexSettings: formToSettings(form) });
      await publish(client, indexName, taskID, `Settings of ${indexName}`);
      for (const row of form.lists.replicas) {
        const sort = sorts[row.value];
        if (!sort?.attribute.trim()) continue;
        const replicaTask = await client.setSettings({ indexName: row.value, indexSettings: replicaSortSettings(row.modifier === 'virtual', sort.attribute.trim(), sort.direction) });
        await publish(client, row.value, replicaTask.taskID, `Sort order of ${row.value}`);
      }
      reloadIndexNames();
    });

  return (
    <Screen title="Configuration" intro={`Settings of ${indexName}. ${editable ? 'Saved together as one settings task.' : 'This key may read them only (it lacks "editSettings").'}`}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        {lists.map(({ field, label, help }) => (
          <Field key={field} label={label} help={help}>
            <ListEditor label={label} rows={form.lists[field]} modifiers={listModifiers[field]} readOnly={!editable} onChange={(rows) => update({ lists: { ...form.lists, [field]: rows } })} />
          </Field>
        ))}
        {form.lists.replicas.length > 0 && (
          <Field label="Sort orders" help="What each replica sorts by (an attribute and a direction), saved on the replica.">
            {form.lists.replicas.map((row) => (
              <div key={row.value} className="vt-console-inline">
                <span>{row.value}</span>
                <input aria-label={`Sort ${row.value} by`} placeholder="attribute" value={sorts[row.value]?.attribute ?? ''} readOnly={!editable} onChange={(event) => setSorts({ ...sorts, [row.value]: { direction: sorts[row.value]?.direction ?? 'asc', attribute: event.target.value } })} />
                <select aria-label={`Sort ${row.value} direction`} value={sorts[row.value]?.direction ?? 'asc'} disabled={!editable} onChange={(event) => setSorts({ ...sorts, [row.value]: { attribute: sorts[row.value]?.attribute ?? '', direction: event.target.value as 'asc' | 'desc' } })}>
                  <option value="asc">ascending</option>
                  <option value="desc">descending</option>
                </select>
              </div>
            ))}
          </Field>
        )}
        <Field label="Typo tolerance" help="Whether matches with typos count: true, false, min (only the fewest typos) or strict.">
          <select aria-label="Typo tolerance" value={form.typoTolerance} disabled={!editable} onChange={(event) => update({ typoTolerance: event.target.value as SettingsForm['typoTolerance'] })}>
            {['true', 'false', 'min', 'strict'].map((value) => (
              <option key={value}>{value}</option>
            ))}
          </select>
          <label>
            Minimum word length for 1 typo <input type="number" min={1} value={form.minWordSizefor1Typo} readOnly={!editable} onChange={(event) => update({ minWordSizefor1Typo: Number(event.target.value) })} />
          </label>
          <label>
            Minimum word length for 2 typos <input type="number" min={1} value={form.minWordSizefor2Typos} readOnly={!editable} onChange={(event) => update({ minWordSizefor2Typos: Number(event.target.value) })} />
          </label>
        </Field>
        <Field label="Highlighting" help="The tags put around matched words in highlighted attributes.">
          <label>
            Before <input aria-label="Highlight before" value={form.highlightPreTag} readOnly={!editable} onChange={(event) => update({ highlightPreTag: event.target.value })} />
          </label>
          <label>
            After <input aria-label="Highlight after" value={form.highlightPostTag} readOnly={!editable} onChange={(event) => update({ highlightPostTag: event.target.value })} />
          </label>
        </Field>
        <Field label="Distinct" help="How many records with the same distinct attribute value a result keeps (0: off).">
          <input type="number" aria-label="Distinct" min={0} max={4} value={form.distinct} readOnly={!editable} onChange={(event) => update({ distinct: Number(event.target.value) })} />
          <input aria-label="Attribute for distinct" placeholder="attribute for distinct" value={form.attributeForDistinct} readOnly={!editable} onChange={(event) => update({ attributeForDistinct: event.target.value })} />
        </Field>
        <OutcomeLine outcome={outcome} />
        {editable && (
          <button type="submit" className="vt-primary">
            Save settings
          </button>
        )}
      </form>
    </Screen>
  );
}
