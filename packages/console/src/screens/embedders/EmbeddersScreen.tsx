/**
 * Embedders (Vitrine's extension for search by meaning): each embedder of the chosen index with its source and
 * size, how many records hold a vector and how many wait for one, whether records are being embedded, and the
 * last error (an endpoint down, a local model's folder gone). Read from `GET /1/indexes/{index}/embedders`,
 * again every 2 s while records are being embedded or an embedder is failing. Hosted Algolia has no such
 * endpoint (a 404, as for an index that does not exist): the screen says so.
 */
import { useEffect } from 'react';
import type { EmbedderStatus, EmbeddersResponse } from '@vitrine/protocol';
import { describeError, statusOf } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { Table, type Column } from '../../shared/DataTable.tsx';
import { Screen } from '../../shared/Screen.tsx';
import { ErrorAlert } from '../../shared/status.tsx';
import { lastValue, useLoad } from '../../shared/use-load.ts';

type Row = EmbedderStatus & { name: string };

const INTRO = 'Search by meaning: where each embedder of this index stands, records with a vector and records waiting for one.';
const REFRESH_MS = 2000;
const STATES: Record<Row['state'], string> = { idle: 'Up to date', embedding: 'Embedding records…', failing: 'Failing' };

const columns: ReadonlyArray<Column<Row>> = [
  { label: 'Embedder', cell: (row) => row.name, header: true },
  { label: 'Source', cell: (row) => row.source },
  { label: 'Dimensions', cell: (row) => row.dimensions.toLocaleString('en'), numeric: true },
  { label: 'With a vector', cell: (row) => row.vectors.toLocaleString('en'), numeric: true },
  { label: 'Waiting', cell: (row) => row.missing.toLocaleString('en'), numeric: true },
  { label: 'State', cell: (row) => STATES[row.state] ?? row.state },
  { label: 'Last error', cell: (row) => (row.lastError === undefined ? '—' : `${row.lastError}${row.lastErrorAt ? ` (${new Date(row.lastErrorAt).toLocaleString('en')})` : ''}`) },
];

export default function EmbeddersScreen() {
  const { client, indexName } = useConsole();
  const path = `1/indexes/${encodeURIComponent(indexName)}/embedders`;
  const [loaded, reload] = useLoad(() => client.customGet({ path }) as unknown as Promise<EmbeddersResponse>, [client, path]);
  const embedders = lastValue(loaded)?.embedders;
  const moving = embedders !== undefined && Object.values(embedders).some((embedder) => embedder.state !== 'idle');
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(reload, REFRESH_MS);
    return () => clearInterval(timer);
  }, [moving, reload]);

  if (loaded.state === 'error' && statusOf(loaded.error) === 404 && embedders === undefined) {
    return (
      <Screen title="Embedders" intro={INTRO}>
        <p className="vt-admin-empty" role="status">
          No embedders to show: {indexName} does not exist, or this server has no embedders API (a Vitrine extension hosted Algolia does not have).
        </p>
      </Screen>
    );
  }
  const rows: Row[] = Object.entries(embedders ?? {}).map(([name, embedder]) => ({ name, ...embedder }));
  return (
    <Screen title="Embedders" intro={INTRO}>
      {loaded.state === 'error' && <ErrorAlert message={describeError(loaded.error, 'read the embedders', 'settings')} />}
      {loaded.state === 'loading' && <p role="status">Loading…</p>}
      {embedders !== undefined && rows.length === 0 && (
        <p className="vt-admin-empty" role="status">
          {indexName} has no embedders: set <code>embedders</code> in its settings (README, “Search by meaning”).
        </p>
      )}
      {rows.length > 0 && <Table label={`Embedders of ${indexName}`} rows={rows} columns={columns} rowKey={(row) => row.name} rowData={(row) => ({ 'data-embedder': row.name, 'data-state': row.state })} />}
      <div className="vt-console-inline">
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
    </Screen>
  );
}
