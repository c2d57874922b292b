/** Synonyms: list and search them, create, edit and delete, with a live preview of what a query finds. */
import { useState } from 'react';
import type { SynonymHit, SynonymType } from 'algoliasearch';
import { can, describeError } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { Preview } from '../../shared/Preview.tsx';
import { publish } from '../../api/tasks.ts';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { RowActions } from '../../shared/confirm.tsx';
import { Table } from '../../shared/DataTable.tsx';
import { Field, FormActions } from '../../shared/form.tsx';
import { useLoad } from '../../shared/use-load.ts';
import { ListToolbar, Screen } from '../../shared/Screen.tsx';

const types: Array<{ type: SynonymType; label: string }> = [
  { type: 'synonym', label: 'Regular: all words are equivalent' },
  { type: 'onewaysynonym', label: 'One-way: the input also finds the synonyms' },
  { type: 'altcorrection1', label: 'Alternative correction (1 typo)' },
  { type: 'altcorrection2', label: 'Alternative correction (2 typos)' },
  { type: 'placeholder', label: 'Placeholder' },
];

const split = (text: string) => text.split(',').map((word) => word.trim()).filter(Boolean);

/** What a synonym says, in one line for the list. */
function summary(hit: SynonymHit): string {
  if (hit.type === 'onewaysynonym') return `${hit.input} → ${hit.synonyms?.join(', ')}`;
  if (hit.type === 'altcorrection1' || hit.type === 'altcorrection2') return `${hit.word} → ${hit.corrections?.join(', ')}`;
  if (hit.type === 'placeholder') return `${hit.placeholder} = ${hit.replacements?.join(', ')}`;
  return hit.synonyms?.join(' = ') ?? '';
}

interface Draft {
  objectID: string;
  type: SynonymType;
  words: string;
  input: string;
}

function toDraft(hit: SynonymHit): Draft {
  const words = hit.synonyms ?? hit.corrections ?? hit.replacements ?? [];
  return { objectID: hit.objectID, type: hit.type, words: words.join(', '), input: hit.input ?? hit.word ?? hit.placeholder ?? '' };
}

function toSynonym(draft: Draft): SynonymHit {
  const words = split(draft.words);
  const base = { objectID: draft.objectID.trim(), type: draft.type };
  if (draft.type === 'onewaysynonym') return { ...base, input: draft.input.trim(), synonyms: words };
  if (draft.type === 'altcorrection1' || draft.type === 'altcorrection2') return { ...base, word: draft.input.trim(), corrections: words };
  if (draft.type === 'placeholder') return { ...base, placeholder: draft.input.trim(), replacements: words };
  return { ...base, synonyms: words };
}

export default function SynonymsScreen() {
  const { client, access, indexName } = useConsole();
  const [query, setQuery] = useState('');
  const [version, setVersion] = useState(0);
  const [load] = useLoad(() => client.searchSynonyms({ indexName, searchSynonymsParams: { query, hitsPerPage: 100 } }), [client, indexName, query, version]);
  const [draft, setDraft] = useState<Draft | undefined>();
  const [outcome, run] = useAction();
  const editable = can(access, 'editSettings');

  const save = async () => {
    if (!draft) return;
    const synonym = toSynonym(draft);
    const ok = await run({ action: 'change synonyms', acl: 'editSettings', busy: 'Saving synonym…', done: `Synonym ${synonym.objectID} saved and published.` }, async () => {
      const { taskID } = await client.saveSynonym({ indexName, objectID: synonym.objectID, synonymHit: synonym, forwardToReplicas: true });
      await publish(client, indexName, taskID, `Synonym ${synonym.objectID}`);
    });
    if (ok) {
      setDraft(undefined);
      setVersion((n) => n + 1);
    }
  };

  const remove = (objectID: string) =>
    run({ action: 'change synonyms', acl: 'editSettings', busy: 'Deleting synonym…', done: `Synonym ${objectID} deleted and published.` }, async () => {
      const { taskID } = await client.deleteSynonym({ indexName, objectID, forwardToReplicas: true });
      await publish(client, indexName, taskID, `Delete synonym ${objectID}`);
      setVersion((n) => n + 1);
    });

  const needsInput = draft && draft.type !== 'synonym';
  return (
    <Screen title="Synonyms" intro={`Words that ${indexName} treats as equivalent. Changes apply to its replicas too.`}>
      {load.state === 'error' && <ErrorAlert message={describeError(load.error, 'read synonyms', 'settings')} />}
      <OutcomeLine outcome={outcome} />
      <ListToolbar label="Search synonyms" query={query} onQuery={setQuery}>
        {editable && (
          <button type="button" onClick={() => setDraft({ objectID: `syn-${Date.now()}`, type: 'synonym', words: '', input: '' })}>
            New synonym
          </button>
        )}
      </ListToolbar>
      {draft && (
        <form
          className="vt-console-panel"
          aria-label="Synonym"
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <Field label="Type">
            <select aria-label="Synonym type" value={draft.type} onChange={(event) => setDraft({ ...draft, type: event.target.value as SynonymType })}>
              {types.map(({ type, label }) => (
                <option key={type} value={type}>
                  {label}
                </option>
              ))}
            </select>
          </Field>
          {needsInput && (
            <Field label={draft.type === 'onewaysynonym' ? 'Input' : draft.type === 'placeholder' ? 'Placeholder' : 'Word'}>
              <input value={draft.input} onChange={(event) => setDraft({ ...draft, input: event.target.value })} required />
            </Field>
          )}
          <Field label={`${draft.type === 'placeholder' ? 'Replacements' : draft.type.startsWith('altcorrection') ? 'Corrections' : 'Synonyms'} (comma-separated)`}>
            <input value={draft.words} onChange={(event) => setDraft({ ...draft, words: event.target.value })} required />
          </Field>
          <FormActions submit="Save synonym" onCancel={() => setDraft(undefined)} />
        </form>
      )}
      <div className="vt-console-columns vt-console-columns--wide">
        <Table
          label="Synonyms"
          rows={load.state === 'ready' ? load.value.hits : []}
          rowKey={(hit) => hit.objectID}
          columns={[
            { label: 'Synonym', cell: summary },
            { label: 'Type', cell: (hit) => hit.type },
            { label: 'Actions', actions: true, cell: (hit) => editable && <RowActions name={hit.objectID} onEdit={() => setDraft(toDraft(hit))} onDelete={() => void remove(hit.objectID)} /> },
          ]}
        />
        <Preview version={version} />
      </div>
    </Screen>
  );
}
