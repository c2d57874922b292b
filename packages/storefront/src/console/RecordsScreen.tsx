/**
 * Records: search the index with its own facets (from its settings), open a record as JSON, edit, add, delete.
 * Each write is a task: the screen says "Published" once search sees it.
 */
import { useEffect, useState } from 'react';
import type { SearchResponse } from 'algoliasearch';
import { can, describeError } from './access.ts';
import { useConsole } from './context.ts';
import { parseRecordJson, recordLabel } from './record-json.ts';
import { publish } from './tasks.ts';
import { ErrorAlert, OutcomeLine, Screen, useAction } from './ui.tsx';

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
  const [results, setResults] = useState<SearchResponse<Record<string, unknown>> | undefined>();
  const [loadError, setLoadError] = useState('');
  const [version, setVersion] = useState(0);
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

  useEffect(() => {
    let current = true;
    client
      .searchSingleIndex<Record<string, unknown>>({
        indexName,
        searchParams: { query, facets, facetFilters: refinements, hitsPerPage: 20, maxValuesPerFacet: 10, attributesToHighlight: [], attributesToSnippet: [], analytics: false, clickAnalytics: false },
      })
      .then(
        (response) => {
          if (!current) return;
          setResults(response);
          setLoadError('');
        },
        (error: unknown) => current && setLoadError(describeError(error, 'search this index', 'search')),
      );
    return () => {
      current = false;
    };
  }, [client, indexName, query, facets, refinements, version]);

  const open = async (objectID: string) => {
    setValidation('');
    try {
      const record = await client.getObject({ indexName, objectID });
      setEditing({ mode: 'edit', objectID, text: JSON.stringify(record, null, 2) });
    } catch (error) {
      setLoadError(describeError(error, 'read this record', 'search'));
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
      setVersion((n) => n + 1);
    }
  };

  const remove = async (objectID: string) => {
    const ok = await run({ action: 'delete records', acl: 'deleteObject', busy: `Deleting ${objectID}…`, done: `Record ${objectID} deleted and published.` }, async () => {
      const { taskID } = await client.deleteObject({ indexName, objectID });
      await publish(client, indexName, taskID, `Delete record ${objectID}`);
    });
    if (ok) {
      setEditing(undefined);
      setVersion((n) => n + 1);
    }
  };

  const toggle = (facet: string, value: string) => {
    const filter = `${facet}:${value}`;
    setRefinements((current) => (current.includes(filter) ? current.filter((item) => item !== filter) : [...current, filter]));
  };

  return (
    <Screen title="Records" intro={`Browse and edit the records of ${indexName}. Edits are tasks: searchable once published.`}>
      {loadError && <ErrorAlert message={loadError} />}
      <OutcomeLine outcome={outcome} />
      <div className="vt-console-inline">
        <input type="search" aria-label="Search records" placeholder="Search records" value={query} onChange={(event) => setQuery(event.target.value)} />
        {results && <span role="status">{(results.nbHits ?? 0).toLocaleString('en-US')} records</span>}
        {can(access, 'addObject') && (
          <button type="button" onClick={() => setEditing({ mode: 'add', text: '{\n  "objectID": ""\n}' })}>
            Add record
          </button>
        )}
      </div>
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
        <table className="vt-console-table" aria-label="Records">
          <thead>
            <tr>
              <th scope="col">objectID</th>
              <th scope="col">Name</th>
            </tr>
          </thead>
          <tbody>
            {(results?.hits ?? []).map((hit) => (
              <tr key={hit.objectID}>
                <th scope="row">
                  <button type="button" className="vt-link" onClick={() => void open(hit.objectID)}>
                    {hit.objectID}
                  </button>
                </th>
                <td>{recordLabel(hit)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Screen>
  );
}
