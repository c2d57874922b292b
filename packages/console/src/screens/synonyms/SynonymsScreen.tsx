/**
 * Synonyms: list and search them, create and edit with a form (synonym-form.ts: two-way, one-way, alternative
 * corrections, placeholders) or as Algolia's JSON (the advanced mode, in sync with the form), delete, with a live
 * preview of what a query finds.
 */
import { useState } from 'react';
import type { SynonymHit } from 'algoliasearch';
import { can, describeError } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { publish } from '../../api/tasks.ts';
import { withoutServerFields } from '../../lib/canonical.ts';
import { RowActions } from '../../shared/confirm.tsx';
import { Table } from '../../shared/DataTable.tsx';
import { DraftForm } from '../../shared/DraftForm.tsx';
import { Field, TextField } from '../../shared/form.tsx';
import { Preview } from '../../shared/Preview.tsx';
import { ListToolbar, Screen } from '../../shared/Screen.tsx';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { useFormJsonDraft } from '../../shared/use-form-json.ts';
import { useLoad } from '../../shared/use-load.ts';
import { fieldLabels, formToSynonym, synonymProblem, synonymSummary, synonymToForm, synonymTypes } from './synonym-form.ts';
import type { SynonymForm } from './synonym-form.ts';

const codec = { toForm: synonymToForm, fromForm: formToSynonym };

function SynonymFields({ form, onChange }: { form: SynonymForm; onChange: (form: SynonymForm) => void }) {
  const labels = fieldLabels(form.type);
  return (
    <>
      <Field label="Type">
        <select aria-label="Synonym type" value={form.type} onChange={(event) => onChange({ ...form, type: event.target.value as SynonymForm['type'] })}>
          {synonymTypes.map(({ type, label }) => (
            <option key={type} value={type}>
              {label}
            </option>
          ))}
        </select>
      </Field>
      {labels.input && <TextField label={labels.input} value={form.input} onChange={(input) => onChange({ ...form, input })} required />}
      <TextField label={labels.words} value={form.words} onChange={(words) => onChange({ ...form, words })} required />
    </>
  );
}

export default function SynonymsScreen() {
  const { client, access, indexName } = useConsole();
  const [query, setQuery] = useState('');
  const [version, setVersion] = useState(0);
  const [load] = useLoad(() => client.searchSynonyms({ indexName, searchSynonymsParams: { query, hitsPerPage: 100 } }), [client, indexName, query, version]);
  const [draft, open, openForm] = useFormJsonDraft(codec);
  const [validation, setValidation] = useState('');
  const [outcome, run] = useAction();
  const editable = can(access, 'editSettings');

  const save = async () => {
    if (!draft) return;
    const current = draft.current();
    const problem = !current.ok ? current.reason : draft.form ? synonymProblem(draft.form) : current.item.objectID ? '' : 'A synonym needs an objectID.';
    setValidation(problem);
    if (!current.ok || problem) return;
    const synonym = current.item;
    const ok = await run({ action: 'change synonyms', acl: 'editSettings', busy: 'Saving synonym…', done: `Synonym ${synonym.objectID} saved and published.` }, async () => {
      const { taskID } = await client.saveSynonym({ indexName, objectID: synonym.objectID, synonymHit: synonym, forwardToReplicas: true });
      await publish(client, indexName, taskID, `Synonym ${synonym.objectID}`);
    });
    if (ok) {
      open(undefined);
      setVersion((n) => n + 1);
    }
  };

  const remove = (objectID: string) =>
    run({ action: 'change synonyms', acl: 'editSettings', busy: 'Deleting synonym…', done: `Synonym ${objectID} deleted and published.` }, async () => {
      const { taskID } = await client.deleteSynonym({ indexName, objectID, forwardToReplicas: true });
      await publish(client, indexName, taskID, `Delete synonym ${objectID}`);
      setVersion((n) => n + 1);
    });

  return (
    <Screen title="Synonyms" intro={`Words that ${indexName} treats as equivalent. Changes apply to its replicas too.`}>
      {load.state === 'error' && <ErrorAlert message={describeError(load.error, 'read synonyms', 'settings')} />}
      <OutcomeLine outcome={outcome} />
      <ListToolbar label="Search synonyms" query={query} onQuery={setQuery}>
        {editable && (
          <button type="button" onClick={() => openForm({ objectID: `syn-${Date.now()}`, type: 'synonym', words: '', input: '' })}>
            New synonym
          </button>
        )}
      </ListToolbar>
      {draft && <DraftForm name="Synonym" draft={draft} fields={(form, onChange) => <SynonymFields form={form} onChange={onChange} />} problem={validation} save={() => void save()} close={() => open(undefined)} />}
      <div className="vt-console-columns vt-console-columns--wide">
        <Table
          label="Synonyms"
          rows={load.state === 'ready' ? load.value.hits : []}
          rowKey={(hit) => hit.objectID}
          columns={[
            { label: 'Synonym', cell: synonymSummary },
            { label: 'Type', cell: (hit) => hit.type },
            { label: 'Actions', actions: true, cell: (hit) => editable && <RowActions name={hit.objectID} onEdit={() => open(withoutServerFields(hit) as SynonymHit)} onDelete={() => void remove(hit.objectID)} /> },
          ]}
        />
        <Preview version={version} />
      </div>
    </Screen>
  );
}
