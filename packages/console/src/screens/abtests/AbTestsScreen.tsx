/**
 * A/B tests: the tests with their status and headline figures, one test's figures per variant with a chart
 * (read again every 15 seconds while it runs), a form to start one from two indexes or from one index with
 * search parameters on variant B, and Stop and Delete. Through the official abtesting client (`/2/abtests`).
 */
import { useEffect, useState } from 'react';
import type { ABTest } from 'algoliasearch';
import { can, describeError, statusOf } from '../../api/access.ts';
import { adminAbtestingClient } from '../../api/client.ts';
import { useConsole, useSetup } from '../../api/context.ts';
import { ConfirmByName } from '../../shared/confirm.tsx';
import { Table } from '../../shared/DataTable.tsx';
import { Field, FormActions, JsonArea, TextField } from '../../shared/form.tsx';
import { Screen, Unavailable } from '../../shared/Screen.tsx';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { useLoad } from '../../shared/use-load.ts';
import { emptyForm, percent, requestOf, significanceText } from './abtest-form.ts';
import type { AbTestForm } from './abtest-form.ts';
import { RatesChart } from './RatesChart.tsx';

const TITLE = 'A/B tests';
const INTRO = 'Compare two indexes, or one index with other search parameters, on your shoppers’ own searches: each shopper always sees the same variant.';
const WATCH_MS = 15_000;

const indexesOf = (test: ABTest) => (test.variants[0].index === test.variants[1].index ? `${test.variants[0].index} (+ parameters)` : `${test.variants[0].index} / ${test.variants[1].index}`);

export default function AbTestsScreen() {
  const { client, access, indexName, indexNames } = useConsole();
  const { config } = useSetup();
  const [abtesting] = useState(() => adminAbtestingClient(client, config));
  const [tests, reload] = useLoad(() => abtesting.listABTests({ limit: 100 }), [abtesting]);
  const [openId, setOpenId] = useState<number | undefined>(undefined);
  const [form, setForm] = useState<AbTestForm | undefined>(undefined);
  const [deleting, setDeleting] = useState<ABTest | undefined>(undefined);
  const [outcome, run] = useAction();
  /** What the form must fix before anything is sent. */
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const mayEdit = can(access, 'editSettings');

  // Watching: the list (and the open test's figures in it) read again while a test runs.
  const running = tests.state === 'ready' && (tests.value.abtests ?? []).some((test) => test.status === 'active');
  useEffect(() => {
    if (!running) return undefined;
    const timer = setInterval(reload, WATCH_MS);
    return () => clearInterval(timer);
  }, [running, reload]);

  if (tests.state === 'error' && statusOf(tests.error) === 404) return <Unavailable title={TITLE} intro={INTRO} what="A/B tests" endpoints="/2/abtests" />;
  const list = tests.state === 'ready' ? (tests.value.abtests ?? []) : [];
  const open = list.find((test) => test.abTestID === openId);

  const create = async (draft: AbTestForm) => {
    const reading = requestOf(draft, Date.now());
    setProblem(reading.ok ? undefined : reading.problem);
    if (!reading.ok) return;
    const started = await run({ action: 'start an A/B test', acl: 'editSettings', busy: 'Starting the test…', done: `Test “${reading.request.name}” started.` }, async () => {
      const { abTestID } = await abtesting.addABTests(reading.request);
      setOpenId(abTestID);
    });
    if (started) {
      setForm(undefined);
      reload();
    }
  };
  const stop = (test: ABTest) =>
    run({ action: 'stop an A/B test', acl: 'editSettings', busy: `Stopping “${test.name}”…`, done: `Test “${test.name}” stopped: its figures stay.` }, async () => {
      await abtesting.stopABTest({ id: test.abTestID });
      reload();
    });
  const remove = (test: ABTest) =>
    run({ action: 'delete an A/B test', acl: 'editSettings', busy: `Deleting “${test.name}”…`, done: `Test “${test.name}” deleted.` }, async () => {
      await abtesting.deleteABTest({ id: test.abTestID });
      setDeleting(undefined);
      if (openId === test.abTestID) setOpenId(undefined);
      reload();
    });

  return (
    <Screen title={TITLE} intro={INTRO}>
      <div className="vt-console-inline">
        {mayEdit && !form && (
          <button type="button" className="vt-primary" onClick={() => setForm(emptyForm(indexName))}>
            New A/B test
          </button>
        )}
        <button type="button" onClick={reload}>
          Refresh figures
        </button>
      </div>
      {form && <NewTestForm form={form} indexNames={indexNames} onChange={setForm} onSubmit={() => void create(form)} onCancel={() => setForm(undefined)} />}
      {form && problem && <ErrorAlert message={problem} />}
      <OutcomeLine outcome={outcome} />
      {tests.state === 'loading' && <p role="status">Loading the tests…</p>}
      {tests.state === 'error' && <ErrorAlert message={describeError(tests.error, 'read the A/B tests', 'analytics')} />}
      {tests.state === 'ready' && list.length === 0 && <p className="vt-admin-empty">No A/B test yet.</p>}
      {list.length > 0 && (
        <Table
          label="A/B tests"
          rows={list}
          rowKey={(test) => String(test.abTestID)}
          rowData={(test) => ({ 'data-abtest': test.name })}
          columns={[
            { label: 'Name', header: true, cell: (test) => test.name },
            { label: 'Indexes', cell: indexesOf },
            { label: 'Status', cell: (test) => test.status },
            { label: 'Ends', cell: (test) => test.endAt.slice(0, 10) },
            { label: 'Searches A / B', numeric: true, cell: (test) => `${test.variants[0].searchCount ?? 0} / ${test.variants[1].searchCount ?? 0}` },
            { label: 'Conversion A / B', numeric: true, cell: (test) => `${percent(test.variants[0].conversionRate)} / ${percent(test.variants[1].conversionRate)}` },
            {
              label: 'Actions',
              actions: true,
              cell: (test) => (
                <>
                  <button type="button" aria-label={`Show ${test.name}`} onClick={() => setOpenId(test.abTestID)}>
                    Show
                  </button>
                  {mayEdit && test.status === 'active' && (
                    <button type="button" aria-label={`Stop ${test.name}`} onClick={() => void stop(test)}>
                      Stop
                    </button>
                  )}
                  {mayEdit && (
                    <button type="button" className="vt-danger" aria-label={`Delete ${test.name}`} onClick={() => setDeleting(test)}>
                      Delete
                    </button>
                  )}
                </>
              ),
            },
          ]}
        />
      )}
      {deleting && <ConfirmByName name={deleting.name} action="delete this test and its figures" onConfirm={() => void remove(deleting)} onCancel={() => setDeleting(undefined)} />}
      {open && <TestFigures test={open} />}
    </Screen>
  );
}

function TestFigures({ test }: { test: ABTest }) {
  // `customSearchParameters` is in the answers, not in the client's `Variant` type.
  const rows = test.variants.map((variant, i) => ({ ...(variant as typeof variant & { customSearchParameters?: Record<string, unknown> }), name: i === 0 ? 'A (control)' : 'B' }));
  return (
    <section className="vt-console-panel" aria-label={`Figures of ${test.name}`}>
      <h3>{test.name}</h3>
      <p className="vt-admin-hint">
        {test.status === 'active' ? `Running until ${test.endAt.slice(0, 16).replace('T', ' ')} UTC (figures read again every 15 seconds).` : `Status: ${test.status}.`}
      </p>
      <Table
        label={`Variants of ${test.name}`}
        rows={rows}
        rowKey={(row) => row.name}
        columns={[
          { label: 'Variant', header: true, cell: (row) => row.name },
          { label: 'Index', cell: (row) => (row.customSearchParameters ? `${row.index} + ${JSON.stringify(row.customSearchParameters)}` : row.index) },
          { label: 'Traffic', numeric: true, cell: (row) => `${row.trafficPercentage} %` },
          { label: 'Searches', numeric: true, cell: (row) => row.searchCount ?? 0 },
          { label: 'Users', numeric: true, cell: (row) => row.userCount ?? 0 },
          { label: 'Tracked searches', numeric: true, cell: (row) => row.trackedSearchCount ?? 0 },
          { label: 'Clicks', numeric: true, cell: (row) => row.clickCount },
          { label: 'Conversions', numeric: true, cell: (row) => row.conversionCount },
          { label: 'Click-through', numeric: true, cell: (row) => percent(row.clickThroughRate) },
          { label: 'Conversion', numeric: true, cell: (row) => percent(row.conversionRate) },
        ]}
      />
      <p>Clicks: {significanceText(test.clickSignificance)}. Conversions: {significanceText(test.conversionSignificance)}.</p>
      <RatesChart test={test} />
    </section>
  );
}

function NewTestForm({ form, indexNames, onChange, onSubmit, onCancel }: {
  form: AbTestForm;
  indexNames: string[];
  onChange: (form: AbTestForm) => void;
  onSubmit: () => void;
  onCancel: () => void;
}) {
  const set = (change: Partial<AbTestForm>) => onChange({ ...form, ...change });
  const picker = (label: string, value: string, key: 'indexA' | 'indexB') => (
    <Field label={label}>
      <select value={value} onChange={(event) => set(key === 'indexA' ? { indexA: event.target.value } : { indexB: event.target.value })}>
        <option value="">Choose an index</option>
        {indexNames.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </Field>
  );
  return (
    <form
      className="vt-console-panel"
      aria-label="New A/B test"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <TextField label="Name" value={form.name} onChange={(name) => set({ name })} required />
      <Field label="Variant B is">
        <select value={form.mode} onChange={(event) => set({ mode: event.target.value as AbTestForm['mode'] })}>
          <option value="indexes">another index</option>
          <option value="params">the same index with other search parameters</option>
        </select>
      </Field>
      {picker('Variant A (control): index', form.indexA, 'indexA')}
      {form.mode === 'indexes' ? (
        picker('Variant B: index', form.indexB, 'indexB')
      ) : (
        <Field label="Variant B: search parameters (JSON)" hint={'Added to every search of variant B, for example {"filters": "stock > 0"}.'}>
          <JsonArea label="Variant B: search parameters" value={form.params} onChange={(params) => set({ params })} />
        </Field>
      )}
      <TextField label="Traffic to variant A (%)" hint="Variant B gets the rest." value={form.trafficA} onChange={(trafficA) => set({ trafficA })} />
      <TextField label="Runs for (days)" hint="From now; at most 90." value={form.days} onChange={(days) => set({ days })} />
      <FormActions submit="Start the test" onCancel={onCancel} />
    </form>
  );
}
