/**
 * What learning changed: for a query of the chosen index (and, optionally, a shopper's user token), its first
 * page with learning off beside the page as shoppers get it, each learned hit marked moved up or down and why
 * (re-ranking's boost, the shopper's affinities, query categorization's boost, a rule's pin). Two searches through
 * the admin client (`compare.ts` says which parameters), not counted in analytics; works on hosted Algolia too.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import { describeError } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { recordLabel } from '../../lib/record-json.ts';
import { Table } from '../../shared/DataTable.tsx';
import type { Column } from '../../shared/DataTable.tsx';
import { TextField } from '../../shared/form.tsx';
import { Screen } from '../../shared/Screen.tsx';
import { compareHits, comparisonParams, moveText } from './compare.ts';
import type { ComparedHit, Row } from './compare.ts';

/** The page compared, and how deep each side is fetched to say where a hit came from. */
const SHOWN = 20;
const DEPTH = 100;

type Comparison = { query: string; userToken: string; on: Row[]; off: Row[]; moved: number; nbHits: number };

const product = (row: Row) => (
  <>
    {recordLabel(row.hit) || row.objectID} <small>{row.objectID}</small>
  </>
);
const place = (position: number | undefined) => (position === undefined ? `beyond ${DEPTH}` : String(position));

const learnedColumns: Array<Column<Row>> = [
  { label: '#', cell: (row) => row.position, numeric: true },
  { label: 'Product', cell: product, header: true },
  { label: 'Moved', cell: (row) => moveText(row.move) },
  { label: 'Learning off', cell: (row) => place(row.otherPosition), numeric: true },
  { label: 'Why', cell: (row) => row.reasons.join('; ') },
];
const plainColumns: Array<Column<Row>> = [
  { label: '#', cell: (row) => row.position, numeric: true },
  { label: 'Product', cell: product, header: true },
  { label: 'Learning on', cell: (row) => place(row.otherPosition), numeric: true },
];
const rowData = (row: Row) => ({ 'data-object-id': row.objectID, 'data-move': row.move.kind });

export default function LearningScreen() {
  const { client, indexName } = useConsole();
  const [query, setQuery] = useState('');
  const [userToken, setUserToken] = useState('');
  const [state, setState] = useState<{ busy: boolean; error?: string; comparison?: Comparison }>({ busy: false });

  const compare = (event: FormEvent) => {
    event.preventDefault();
    const asked = { query: query.trim(), userToken: userToken.trim() };
    const params = comparisonParams(asked.query, asked.userToken, DEPTH);
    // The last comparison goes at once: tables of another query beside this one's status would mislead.
    setState({ busy: true });
    const search = (searchParams: Record<string, unknown>) => client.searchSingleIndex<ComparedHit>({ indexName, searchParams });
    Promise.all([search(params.on), search(params.off)]).then(
      ([on, off]) => setState({ busy: false, comparison: { ...asked, ...compareHits(on.hits, off.hits, SHOWN), nbHits: on.nbHits ?? 0 } }),
      (error: unknown) => setState({ busy: false, error: describeError(error, 'search this index', 'search') }),
    );
  };

  const result = state.comparison;
  return (
    <Screen title="Learning" intro="What the shop's learning changes for a query: its first page with learning off beside the page shoppers get, each hit's move and why.">
      <form className="vt-console-inline" onSubmit={compare} aria-label="Compare">
        <TextField label="Query" value={query} onChange={setQuery} placeholder="a shopper's query" />
        <TextField label="User token (optional)" value={userToken} onChange={setUserToken} placeholder="a shopper, for personalization" />
        <button type="submit" className="vt-primary" disabled={state.busy}>
          Compare
        </button>
      </form>
      <p className="vt-admin-hint">
        Learning off: enableReRanking and enablePersonalization false, query categorization's automatic boost off. Learning on: the index's own
        settings, as shoppers search. Neither search counts in analytics or joins an A/B test.
      </p>
      {state.busy && <p role="status">Comparing…</p>}
      {state.error && <p role="alert">{state.error}</p>}
      {result && (
        <>
          <p role="status">
            {result.moved === 0
              ? `Learning changes nothing on the first ${Math.min(SHOWN, result.on.length)} hits of “${result.query}”${result.userToken ? ` for ${result.userToken}` : ''}.`
              : `Learning moves ${result.moved} of the first ${result.on.length} hits of “${result.query}”${result.userToken ? ` for ${result.userToken}` : ''} (${result.nbHits.toLocaleString('en-US')} results).`}
          </p>
          <div className="vt-admin-tables">
            <Table label="Learning off" rows={result.off} rowKey={(row) => row.objectID} columns={plainColumns} rowData={rowData} />
            <Table label="Learning on" rows={result.on} rowKey={(row) => row.objectID} columns={learnedColumns} rowData={rowData} />
          </div>
        </>
      )}
    </Screen>
  );
}
