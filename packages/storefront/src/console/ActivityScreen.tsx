/**
 * Activity: the tasks this console started in this tab and their state (Algolia has no "recent tasks" list),
 * and the server's API logs (`getLogs`, newest first) where it offers them and the key may read them (the
 * `logs` ACL on Algolia; the admin key on Vitrine). "Refresh" reads both again.
 */
import { useEffect, useState } from 'react';
import type { Log } from 'algoliasearch';
import { can, describeError, statusOf } from './access.ts';
import { useConsole } from './context.ts';
import { refreshTask, useTaskLog } from './tasks.ts';
import { OutcomeLine, Screen, useAction } from './ui.tsx';

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
        <table className="vt-console-table" aria-label="Recent tasks">
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Index</th>
              <th scope="col">What</th>
              <th scope="col">When</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((task) => (
              <tr key={task.taskID}>
                <td className="vt-num">{task.taskID}</td>
                <td>{task.indexName}</td>
                <th scope="row">{task.label}</th>
                <td>{new Date(task.at).toLocaleTimeString('en-US')}</td>
                <td>{task.status === 'published' ? 'Published' : task.status === 'failed' ? 'Unknown (check failed)' : 'Not published yet'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="vt-console-panel" role="region" aria-label="Logs">
        <h3>API logs</h3>
        {logs.state === 'loading' && <p className="vt-loading">Loading logs…</p>}
        {logs.state === 'unavailable' && <p className="vt-admin-hint">{logs.message}</p>}
        {logs.state === 'ready' && (
          <table className="vt-console-table" aria-label="API logs">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Request</th>
                <th scope="col">Index</th>
                <th scope="col">Status</th>
                <th scope="col">Time (ms)</th>
              </tr>
            </thead>
            <tbody>
              {logs.entries.map((entry, index) => (
                <tr key={index}>
                  <td>{new Date(entry.timestamp).toLocaleTimeString('en-US')}</td>
                  <th scope="row">
                    {entry.method} {entry.url}
                  </th>
                  <td>{entry.index ?? entry.inner_queries?.map((query) => query.index_name).join(', ') ?? ''}</td>
                  <td>{entry.answer_code}</td>
                  <td className="vt-num">{entry.processing_time_ms}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Screen>
  );
}
