/**
 * Activity: the tasks this console started in this tab and their state (Algolia has no "recent tasks" list),
 * and the server's API logs (`getLogs`, newest first) where it offers them and the key may read them (the
 * `logs` ACL on Algolia; the admin key on Vitrine). "Refresh" reads both again.
 */
import { useEffect, useState } from 'react';
import type { Log } from 'algoliasearch';
import { can, describeError, statusOf } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { refreshTask, useTaskLog } from '../../api/tasks.ts';
import type { TaskEntry } from '../../api/tasks.ts';
import { Table } from '../../shared/DataTable.tsx';
import type { Column } from '../../shared/DataTable.tsx';
import { OutcomeLine, taskStateLabel, useAction } from '../../shared/status.tsx';
import { Screen } from '../../shared/Screen.tsx';

const taskColumns: Array<Column<TaskEntry>> = [
  { label: 'Task', cell: (task) => task.taskID, numeric: true },
  { label: 'Index', cell: (task) => task.indexName },
  { label: 'What', cell: (task) => task.label, header: true },
  { label: 'When', cell: (task) => new Date(task.at).toLocaleTimeString('en-US') },
  { label: 'State', cell: (task) => taskStateLabel(task.status) },
];

const logColumns: Array<Column<Log>> = [
  { label: 'When', cell: (entry) => new Date(entry.timestamp).toLocaleTimeString('en-US') },
  { label: 'Request', cell: (entry) => `${entry.method} ${entry.url}`, header: true },
  { label: 'Index', cell: (entry) => entry.index ?? entry.inner_queries?.map((query) => query.index_name).join(', ') ?? '' },
  { label: 'Status', cell: (entry) => entry.answer_code },
  { label: 'Time (ms)', cell: (entry) => entry.processing_time_ms, numeric: true },
];

type Logs = { state: 'loading' } | { state: 'ready'; entries: Log[] } | { state: 'unavailable'; message: string };

export default function ActivityScreen() {
  const { client, access } = useConsole();
  const tasks = useTaskLog();
  const [logs, setLogs] = useState<Logs>({ state: 'loading' });
  const [outcome, run] = useAction();

  // Bumped by "Refresh": the logs are read again with the task states.
  const [logsRead, setLogsRead] = useState(0);

  useEffect(() => {
    let current = true;
    if (!can(access, 'logs')) {
      setLogs({ state: 'unavailable', message: 'Logs are hidden: this key lacks the "logs" permission (ACL).' });
      return;
    }
    client.getLogs({ length: 50 }).then(
      (response) => current && setLogs({ state: 'ready', entries: response.logs }),
      (error: unknown) => {
        if (!current) return;
        const message = statusOf(error) === 404 ? 'Logs are unavailable: this server does not offer the logs API (GET /1/logs).' : describeError(error, 'read the logs', 'logs');
        setLogs({ state: 'unavailable', message });
      },
    );
    return () => {
      current = false;
    };
  }, [client, access, logsRead]);

  const refresh = () =>
    run({ action: 'read task states', busy: 'Asking the server…', done: 'Task states and logs refreshed.' }, async () => {
      await Promise.all(tasks.filter((task) => task.status !== 'published').map((task) => refreshTask(client, task)));
      setLogsRead((n) => n + 1);
    });

  return (
    <Screen title="Activity" intro="Recent writes made from this console (in this browser tab) and whether search sees them yet, and the server's last API requests (keys masked).">
      <OutcomeLine outcome={outcome} />
      <div className="vt-console-inline">
        <button type="button" onClick={() => void refresh()}>
          Refresh
        </button>
      </div>
      {tasks.length === 0 ? (
        <p className="vt-admin-empty">No tasks yet in this tab.</p>
      ) : (
        <Table label="Recent tasks" rows={tasks} rowKey={(task) => String(task.taskID)} columns={taskColumns} />
      )}
      <div className="vt-console-panel" role="region" aria-label="Logs">
        <h3>API logs</h3>
        {logs.state === 'loading' && <p className="vt-loading">Loading logs…</p>}
        {logs.state === 'unavailable' && <p className="vt-admin-hint">{logs.message}</p>}
        {logs.state === 'ready' && <Table label="API logs" rows={logs.entries} rowKey={(_entry, index) => String(index)} columns={logColumns} />}
      </div>
    </Screen>
  );
}
