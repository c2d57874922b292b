/**
 * Import: NDJSON, a JSON array or CSV from the operator's disk, streamed in batches with a progress bar and the
 * bad records listed by line; upsert or replace-all; an interrupted import of the same file can resume. Export:
 * the whole index as one JSON download.
 */
import { useState } from 'react';
import { can, describeError } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { download, exportIndex } from './export-index.ts';
import { formatOf } from './readers.ts';
import type { ImportFormat } from './readers.ts';
import { readResumePoint, writeResumePoint } from './resume.ts';
import type { ImportMode, ResumePoint } from './resume.ts';
import { runImport } from './run-import.ts';
import type { ImportProgress } from './run-import.ts';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { Screen } from '../../shared/Screen.tsx';

export default function ImportScreen() {
  const { client, access, indexName } = useConsole();
  const [file, setFile] = useState<File | undefined>();
  const [format, setFormat] = useState<ImportFormat>('ndjson');
  const [mode, setMode] = useState<ImportMode>('upsert');
  const [replaceInvalidUtf8, setReplaceInvalidUtf8] = useState(false);
  const [resumePoint, setResumePoint] = useState<ResumePoint | undefined>();
  const [progress, setProgress] = useState<ImportProgress | undefined>();
  const [running, setRunning] = useState(false);
  const [error, setError] = useState('');
  const [exportOutcome, runExport] = useAction();

  const choose = (chosen: File | undefined) => {
    setFile(chosen);
    setProgress(undefined);
    setError('');
    if (!chosen) return;
    setFormat(formatOf(chosen.name));
    const point = readResumePoint(chosen);
    setResumePoint(point && point.indexName === indexName ? point : undefined);
    if (point) setMode(point.mode);
  };

  // A resume point counts lines, or in a JSON array records (several may share a line).
  const unit = format === 'json' ? 'record' : 'line';
  const start = async (resume: boolean) => {
    if (!file) return;
    if (!resume) writeResumePoint(file, undefined);
    setRunning(true);
    setError('');
    setResumePoint(undefined);
    try {
      await runImport({ client, indexName, file, format, mode, resume, replaceInvalidUtf8, onProgress: setProgress });
    } catch (failure) {
      setError(describeError(failure, 'import records', 'addObject'));
      const point = readResumePoint(file);
      if (point?.lastLine) setResumePoint(point);
    } finally {
      setRunning(false);
    }
  };

  const exportNow = () =>
    runExport({ action: 'export this index', acl: 'browse', busy: `Exporting ${indexName}…`, done: '' }, async () => {
      const result = await exportIndex(client, indexName, () => {});
      download(result.blob, `${indexName}.json`);
    });

  const percent = progress ? Math.round((progress.bytesRead / Math.max(1, progress.totalBytes)) * 100) : 0;
  return (
    <Screen title="Import" intro={`Add records to ${indexName} from a file (NDJSON, JSON array or CSV with a header row), or download the whole index.`}>
      {can(access, 'addObject') && (
        <form
          className="vt-console-panel"
          onSubmit={(event) => {
            event.preventDefault();
            void start(false);
          }}
        >
          <label className="vt-console-field">
            <span>File</span>
            <input type="file" accept=".ndjson,.jsonl,.json,.csv,.txt" onChange={(event) => choose(event.target.files?.[0])} disabled={running} />
          </label>
          <label className="vt-console-field">
            <span>Format</span>
            <select value={format} onChange={(event) => setFormat(event.target.value as ImportFormat)} disabled={running}>
              <option value="ndjson">NDJSON (one record per line)</option>
              <option value="json">JSON array</option>
              <option value="csv">CSV (header row names the attributes)</option>
            </select>
          </label>
          <fieldset className="vt-console-field" disabled={running}>
            <legend>Mode</legend>
            <label>
              <input type="radio" name="mode" checked={mode === 'upsert'} onChange={() => setMode('upsert')} /> Upsert: add new records, replace those with the same objectID
            </label>
            <label>
              <input type="radio" name="mode" checked={mode === 'replace'} onChange={() => setMode('replace')} disabled={!can(access, 'deleteIndex')} /> Replace all: the index holds only this file’s records afterwards (searches see the old records until the end)
            </label>
          </fieldset>
          <label className="vt-console-field">
            <input type="checkbox" checked={replaceInvalidUtf8} onChange={(event) => setReplaceInvalidUtf8(event.target.checked)} disabled={running} /> Replace
            bytes that are not valid UTF-8 with � and import the line (otherwise the line is listed as an error)
          </label>
          {resumePoint && !running && (
            <div className="vt-console-confirm" role="group" aria-label="Resume">
              <p>
                An import of this file stopped after {unit} {resumePoint.lastLine.toLocaleString('en-US')} ({resumePoint.imported.toLocaleString('en-US')} records acknowledged).
              </p>
              <button type="button" className="vt-primary" onClick={() => void start(true)}>
                Resume from {unit} {(resumePoint.lastLine + 1).toLocaleString('en-US')}
              </button>
            </div>
          )}
          <button type="submit" className="vt-primary" disabled={!file || running}>
            {resumePoint ? 'Start over' : 'Import'}
          </button>
        </form>
      )}
      {error && <ErrorAlert message={error} />}
      {progress && (
        <div className="vt-console-panel">
          <progress className="vt-console-progress" aria-label="Import progress" max={100} value={percent} />
          <p role="status">
            {progress.phase === 'done' ? 'Import finished and published: ' : progress.phase === 'publishing' ? 'Waiting for the last batch to be published: ' : `Reading (${percent}%): `}
            Records read: {progress.read.toLocaleString('en-US')}, sent: {progress.sent.toLocaleString('en-US')}, accepted:{' '}
            {progress.accepted.toLocaleString('en-US')}, rejected: {progress.rejected.toLocaleString('en-US')}.
          </p>
          {progress.rejected > progress.errors.length && <p className="vt-admin-hint">The first {progress.errors.length.toLocaleString('en-US')} rejected lines are listed.</p>}
          {progress.errors.length > 0 && (
            <table className="vt-console-table" aria-label="Import errors">
              <thead>
                <tr>
                  <th scope="col">Line</th>
                  <th scope="col">Reason</th>
                </tr>
              </thead>
              <tbody>
                {progress.errors.map((entry) => (
                  <tr key={entry.element ?? entry.line}>
                    <td className="vt-num">
                      {entry.line}
                      {entry.element !== undefined && ` (record ${entry.element})`}
                    </td>
                    <td>{entry.reason}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
      {can(access, 'browse') && can(access, 'settings') && (
        <div className="vt-console-panel">
          <h3>Export</h3>
          <p className="vt-admin-hint">Records, settings, synonyms and rules of {indexName} as one JSON file.</p>
          <button type="button" onClick={() => void exportNow()}>
            Export {indexName}
          </button>
          {exportOutcome.state !== 'done' && <OutcomeLine outcome={exportOutcome} />}
        </div>
      )}
    </Screen>
  );
}
