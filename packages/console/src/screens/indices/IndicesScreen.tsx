/** Indices: the list (records, size, last update, replicas), and create, copy, clear, delete. */
import { useCallback, useEffect, useState } from 'react';
import type { FetchedIndex } from 'algoliasearch';
import { can, describeError } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { publish } from '../../api/tasks.ts';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { Screen } from '../../shared/Screen.tsx';
import { Table } from '../../shared/DataTable.tsx';
import { ConfirmByName } from '../../shared/confirm.tsx';

type Pending = { kind: 'clear' | 'delete'; name: string } | { kind: 'copy'; name: string };

const formatBytes = (bytes: number) => (bytes < 1024 ? `${bytes} B` : bytes < 1024 ** 2 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 ** 2).toFixed(1)} MB`);

export default function IndicesScreen() {
  const { client, access, reloadIndexNames, setIndexName } = useConsole();
  const [indices, setIndices] = useState<FetchedIndex[] | undefined>();
  const [loadError, setLoadError] = useState('');
  const [version, setVersion] = useState(0);
  const [newName, setNewName] = useState('');
  const [copyTo, setCopyTo] = useState('');
  const [pending, setPending] = useState<Pending | undefined>();
  const [outcome, run] = useAction();

  useEffect(() => {
    let current = true;
    client.listIndices({}).then(
      (response) => current && setIndices(response.items),
      (error: unknown) => current && setLoadError(describeError(error, 'list indices', 'listIndexes')),
    );
    return () => {
      current = false;
    };
  }, [client, version]);

  const refresh = useCallback(() => {
    setVersion((n) => n + 1);
    reloadIndexNames();
  }, [reloadIndexNames]);

  const create = async () => {
    const name = newName.trim();
    if (!name) return;
    // Algolia creates an index on its first write; empty settings are the lightest one.
    const ok = await run({ action: 'create an index', acl: 'editSettings', busy: `Creating ${name}…`, done: `Index ${name} created.` }, async () => {
      const { taskID } = await client.setSettings({ indexName: name, indexSettings: {} });
      await publish(client, name, taskID, `Create index ${name}`);
    });
    if (ok) {
      setNewName('');
      refresh();
    }
  };

  const confirm = async (action: Pending) => {
    setPending(undefined);
    const { name } = action;
    if (action.kind === 'copy') {
      const destination = copyTo.trim();
      await run({ action: 'copy an index', acl: 'addObject', busy: `Copying ${name} to ${destination}…`, done: `Copied ${name} to ${destination}.` }, async () => {
        const { taskID } = await client.operationIndex({ indexName: name, operationIndexParams: { operation: 'copy', destination } });
        await publish(client, name, taskID, `Copy ${name} to ${destination}`);
      });
      setCopyTo('');
    } else if (action.kind === 'clear') {
      await run({ action: 'clear an index', acl: 'deleteIndex', busy: `Clearing ${name}…`, done: `All records of ${name} deleted.` }, async () => {
        const { taskID } = await client.clearObjects({ indexName: name });
        await publish(client, name, taskID, `Clear ${name}`);
      });
    } else {
      await run({ action: 'delete an index', acl: 'deleteIndex', busy: `Deleting ${name}…`, done: `Index ${name} deleted.` }, async () => {
        const { taskID } = await client.deleteIndex({ indexName: name });
        await publish(client, name, taskID, `Delete index ${name}`);
      });
    }
    refresh();
  };

  return (
    <Screen title="Indices" intro="Each index holds records, settings, synonyms and rules; replicas are copies sorted another way.">
      {loadError && <ErrorAlert message={loadError} />}
      <OutcomeLine outcome={outcome} />
      {pending && (
        <ConfirmByName name={pending.name} action={pending.kind === 'copy' ? `copy it to ${copyTo}` : pending.kind === 'clear' ? 'clear it' : 'delete it'} onConfirm={() => void confirm(pending)} onCancel={() => setPending(undefined)} />
      )}
      {can(access, 'editSettings') && (
        <form
          className="vt-console-inline"
          onSubmit={(event) => {
            event.preventDefault();
            void create();
          }}
        >
          <label>
            New index name <input value={newName} onChange={(event) => setNewName(event.target.value)} required />
          </label>
          <button type="submit" className="vt-primary">
            Create index
          </button>
        </form>
      )}
      {can(access, 'addObject') && (
        <label className="vt-console-inline">
          Copy destination <input value={copyTo} onChange={(event) => setCopyTo(event.target.value)} placeholder="name of the copy" />
        </label>
      )}
      {indices === undefined && !loadError && <p className="vt-loading">Loading indices…</p>}
      {indices && (
        <Table
          label="Indices"
          rows={indices}
          rowKey={(index) => index.name}
          rowData={(index) => ({ 'data-index': index.name })}
          columns={[
            {
              label: 'Name',
              cell: (index) => (
                <>
                  <button type="button" className="vt-link" onClick={() => setIndexName(index.name)}>
                    {index.name}
                  </button>
                  {index.primary && <small> replica of {index.primary}</small>}
                </>
              ),
            },
            { label: 'Records', cell: (index) => index.entries.toLocaleString('en-US'), numeric: true },
            { label: 'Size', cell: (index) => formatBytes(index.dataSize), numeric: true },
            { label: 'Last update', cell: (index) => new Date(index.updatedAt).toLocaleString('en-US') },
            { label: 'Replicas', cell: (index) => index.replicas?.join(', ') ?? '' },
            {
              label: 'Actions',
              actions: true,
              cell: (index) => (
                <>
                  {can(access, 'addObject') && (
                    <button type="button" disabled={!copyTo.trim()} onClick={() => setPending({ kind: 'copy', name: index.name })}>
                      Copy
                    </button>
                  )}
                  {can(access, 'deleteIndex') && (
                    <>
                      {/* A replica's records are its primary's: clearing is done there. */}
                      {!index.primary && (
                        <button type="button" onClick={() => setPending({ kind: 'clear', name: index.name })}>
                          Clear
                        </button>
                      )}
                      <button type="button" className="vt-danger" onClick={() => setPending({ kind: 'delete', name: index.name })}>
                        Delete
                      </button>
                    </>
                  )}
                </>
              ),
            },
          ]}
        />
      )}
    </Screen>
  );
}
