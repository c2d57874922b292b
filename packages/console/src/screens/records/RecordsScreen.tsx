/**
 * Records: search the index with its own facets (from its settings), open a record as JSON, edit, add, delete.
 * Each write is a task: the screen says "Published" once search sees it.
 */
import { useEffect, useState } from 'react';
import { can, describeError } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { parseRecordJson, recordLabel } from '../../lib/record-json.ts';
import { publish } from '../../api/tasks.ts';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { ListToolbar, Screen } from '../../shared/Screen.tsx';
import { Table } from '../../shared/DataTable.tsx';
import { lastValue, useLoad } from '../../shared/use-load.ts';

type Editing = { mode: 'edit'; objectID: string; text: string } | { mode: 'add'; text: string };

/** Facet names from `attributesForFaceting` (without the searchable()/filterOnly() modifiers; filter-only ones have no counts). */
function facetNames(attributes: string[] | undefined): string[] {
  return (attributes ?? []).filter((attribute) => !attribute.startsWith('filterOnly(')).map((attribute) => attribute.replace(/^(searchable|afterDistinct)\((.*)\)$/, '$2'));
}

export default function RecordsScreen() {
  const { client, access, indexName } = useConsole();
  const [query, setQuery] = useState('');
  const [facets, setFacets] = useState<string[]>([]);
  const [refinements, setRefinements] = useState<string[]>([]);
  const [openError, setOpenError] = useState('');
  const [editing, setEditing] = useState<Editing | undefined>();
  const [validation, setValidation] = useState('');
  const [outcome, run] = useAction();

  useEffect(() => {
    let current = true;
    setRefinements([]);
    // Without the settings permission the records still show, just without facets.
    if (!can(access, 'settings')) return;
    client.getSettings({ indexName }).then(
      (settings) => current && setFacets(facetNames(settings.attributesForFaceting)),
      () => current && setFacets([]),
    );
    return () => {
      current = false;
    };
  }, [client, access, indexName]);

  const [load, reload] = useLoad(
    () =>
      client.searchSingleIndex<Record<string, unknown>>({
        indexName,
        searchParams: { query, facets, facetFilters: refinements, hitsPerPage: 20, maxValuesPerFacet: 10, attributesToHighlight: [], attributesToSnippet: [], analytics: false, clickAnalytics: false },
      }),
    [client, indexName, query, facets, refinements],
  );
  const results = lastValue(load);

  const open = async (objectID: string) => {
    setValidation('');
    setOpenError('');
    try {
      const record = await client.getObject({ indexName, objectID });
      setEditing({ mode: 'edit', objectID, text: JSON.stringify(record, null, 2) });
    } catch (error) {
      setOpenError(describeError(error, 'read this record', 'search'));
    }
  };

  const save = async () => {
    if (!editing) return;
    const parsed = parseRecordJson(editing.text);
    if (!parsed.ok) {
      setValidation(parsed.reason);
      return;
    }
    setValidation('');
    const record = parsed.record;
    const objectID = editing.mode === 'edit' ? editing.objectID : (record.objectID as string | undefined);
    const ok = await run({ action: 'save records', acl: 'addObject', busy: 'Saving… (waiting for the task to be published)', done: `Record ${objectID ?? ''} saved and published.` }, async () => {
      const response = objectID
        ? await client.addOrUpdateObject({ indexName, objectID, body: { ...record, objectID } })
        : await client.saveObject({ indexName, body: record });
      if (response.taskID === undefined) throw new Error('the server answered without a task');
      await publish(client, indexName, response.taskID, `Save record ${response.objectID ?? objectID}`);
    });
    if (ok) {
      setEditing(undefined);
      reload();
    }
  };

  const remove = async (objectID: string) => {
    const ok = await run({ action: 'delete records', acl: 'deleteObject', busy: `Deleting ${objectID}…`, done: `Record ${objectID} deleted and published.` }, async () => {
      const { taskID } = await client.deleteObject({ indexName, objectID });
      await publish(client, indexName, taskID, `Delete record ${objectID}`);
    });
    if (ok) {
      setEditing(undefined);
      reload();
    }
  };

  const toggle = (facet: string, value: string) => {
    const filter = `${facet}:${value}`;
    setRefinements((current) => (current.includes(filter) ? current.filter((item) => item !== filter) : [...current, filter]));
  };

  return (
    <Screen title="Records" intro={`Browse and edit the records of ${indexName}. Edits are tasks: searchable once published.`}>
      {load.state === 'error' && <ErrorAlert message={describeError(load.error, 'search this index', 'search')} />}
      {openError && <ErrorAlert message={openError} />}
      <OutcomeLine outcome={outcome} />
      <ListToolbar label="Search records" query={query} onQuery={setQuery}>
        {results && <span role="status">{(results.nbHits ?? 0).toLocaleString('en-US')} records</span>}
        {can(access, 'addObject') && (
          <button type="button" onClick={() => setEditing({ mode: 'add', text: '{\n  "objectID": ""\n}' })}>
            Add record
          </button>
        )}
      </ListToolbar>
      {editing && (
        <div className="vt-console-panel">
          <h3>{editing.mode === 'edit' ? `Record ${editing.objectID}` : 'New record'}</h3>
          <textarea className="vt-console-json" aria-label="Record JSON" value={editing.text} spellCheck={false} onChange={(event) => setEditing({ ...editing, text: event.target.value })} readOnly={!can(access, 'addObject')} />
          {validation && <ErrorAlert message={validation} />}
          <div className="vt-console-actions">
            {can(access, 'addObject') && (
              <button type="button" className="vt-primary" onClick={() => void save()}>
                Save record
              </button>
            )}
            {editing.mode === 'edit' && can(access, 'deleteObject') && (
              <button type="button" className="vt-danger" onClick={() => void remove(editing.objectID)}>
                Delete record
              </button>
            )}
            <button type="button" onClick={() => setEditing(undefined)}>
              Close
            </button>
          </div>
        </div>
      )}
      <div className="vt-console-columns">
        <aside aria-label="Facets">
          {Object.entries(results?.facets ?? {}).map(([facet, values]) => (
            <div key={facet}>
              <h3>{facet}</h3>
              <ul className="vt-console-facet">
                {Object.entries(values).map(([value, count]) => (
                  <li key={value}>
                    <label>
                      <input type="checkbox" checked={refinements.includes(`${facet}:${value}`)} onChange={() => toggle(facet, value)} /> {value} <small>({count})</small>
                    </label>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </aside>
        <Table
          label="Records"
          rows={results?.hits ?? []}
          rowKey={(hit) => hit.objectID}
          columns={[
            {
              label: 'objectID',
              cell: (hit) => (
                <button type="button" className="vt-link" onClick={() => void open(hit.objectID)}>
                  {hit.objectID}
                </button>
              ),
            },
            { label: 'Name', cell: (hit) => recordLabel(hit) },
          ]}
        />
      </div>
    </Screen>
  );
}
