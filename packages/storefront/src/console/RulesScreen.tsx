/**
 * Rules: list and search, create/edit (as JSON, Algolia's rule format) and delete, with a live preview showing
 * which rules applied (`appliedRules`); clicking Pin or Hide on a preview result adds it to the rule being edited.
 * A server without the Rules API answers 404: the screen says so instead of failing.
 */
import { useEffect, useState } from 'react';
import type { Rule } from 'algoliasearch';
import { can, describeError, statusOf } from './access.ts';
import { useConsole } from './context.ts';
import { Preview } from './Preview.tsx';
import { parseRecordJson } from './record-json.ts';
import { newRule, withResult } from './rules/rule-draft.ts';
import { publish } from './tasks.ts';
import { ErrorAlert, JsonDraft, OutcomeLine, RowActions, Screen, useAction } from './ui.tsx';

type Load = { state: 'loading' } | { state: 'ready'; rules: Rule[] } | { state: 'unavailable' } | { state: 'error'; message: string };

export default function RulesScreen() {
  const { client, access, indexName } = useConsole();
  const [query, setQuery] = useState('');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  const [draft, setDraft] = useState<string | undefined>();
  const [validation, setValidation] = useState('');
  const [previewQuery, setPreviewQuery] = useState('');
  const [outcome, run] = useAction();
  const editable = can(access, 'editSettings');

  useEffect(() => {
    let current = true;
    client.searchRules({ indexName, searchRulesParams: { query, hitsPerPage: 100 } }).then(
      (response) => current && setLoad({ state: 'ready', rules: response.hits }),
      (error: unknown) => {
        if (!current) return;
        setLoad(statusOf(error) === 404 ? { state: 'unavailable' } : { state: 'error', message: describeError(error, 'read rules', 'settings') });
      },
    );
    return () => {
      current = false;
    };
  }, [client, indexName, query, version]);

  if (load.state === 'unavailable') {
    return (
      <Screen title="Rules" intro="Rules change results for chosen queries: pin, hide, filter, or add data.">
        <p className="vt-admin-empty" role="status">
          Rules are not available on this server (it answers 404 for Algolia’s rules endpoints).
        </p>
      </Screen>
    );
  }

  const save = async () => {
    if (draft === undefined) return;
    const parsed = parseRecordJson(draft);
    if (!parsed.ok || typeof parsed.record.objectID !== 'string') {
      setValidation(parsed.ok ? 'A rule needs an objectID' : parsed.reason);
      return;
    }
    setValidation('');
    const rule = parsed.record as unknown as Rule;
    const ok = await run({ action: 'change rules', acl: 'editSettings', busy: 'Saving rule…', done: `Rule ${rule.objectID} saved and published.` }, async () => {
      const { taskID } = await client.saveRule({ indexName, objectID: rule.objectID, rule, forwardToReplicas: true });
      await publish(client, indexName, taskID, `Rule ${rule.objectID}`);
    });
    if (ok) setVersion((n) => n + 1);
  };

  const remove = (objectID: string) =>
    run({ action: 'change rules', acl: 'editSettings', busy: 'Deleting rule…', done: `Rule ${objectID} deleted and published.` }, async () => {
      const { taskID } = await client.deleteRule({ indexName, objectID, forwardToReplicas: true });
      await publish(client, indexName, taskID, `Delete rule ${objectID}`);
      setVersion((n) => n + 1);
    });

  const addResult = (objectID: string, action: 'pin' | 'hide') => {
    // A rule started from the preview applies to the query typed there.
    const current = draft === undefined ? newRule(previewQuery) : parseRecordJson(draft);
    const rule = 'ok' in current ? (current.ok ? (current.record as unknown as Rule) : undefined) : current;
    if (!rule) {
      setValidation('Fix the rule’s JSON before adding results to it.');
      return;
    }
    setDraft(JSON.stringify(withResult(rule, objectID, action), null, 2));
  };

  return (
    <Screen title="Rules" intro={`Rules of ${indexName}: for matching queries, pin or hide results, filter, or add data.`}>
      {load.state === 'error' && <ErrorAlert message={load.message} />}
      <OutcomeLine outcome={outcome} />
      <div className="vt-console-inline">
        <input type="search" aria-label="Search rules" placeholder="Search rules" value={query} onChange={(event) => setQuery(event.target.value)} />
        {editable && (
          <button type="button" onClick={() => setDraft(JSON.stringify(newRule(previewQuery), null, 2))}>
            New rule
          </button>
        )}
      </div>
      {draft !== undefined && (
        <JsonDraft title="Rule" label="Rule JSON" value={draft} onChange={setDraft} problem={validation} onSave={() => void save()} onClose={() => setDraft(undefined)} />
      )}
      <div className="vt-console-columns vt-console-columns--wide">
        <table className="vt-console-table" aria-label="Rules">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Condition</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {(load.state === 'ready' ? load.rules : []).map((rule) => (
              <tr key={rule.objectID}>
                <th scope="row">{rule.description || rule.objectID}</th>
                <td>{(rule.conditions ?? []).map((condition) => `${condition.anchoring ?? ''} “${condition.pattern ?? ''}”`).join('; ')}</td>
                <td className="vt-console-actions">
                  {editable && <RowActions name={rule.objectID} onEdit={() => setDraft(JSON.stringify(rule, null, 2))} onDelete={() => void remove(rule.objectID)} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Preview
          version={version}
          onQueryChange={setPreviewQuery}
          footer={(response) => {
            const applied = (response as { appliedRules?: Array<{ objectID?: string }> }).appliedRules ?? [];
            return <p className="vt-admin-hint" data-testid="applied-rules">Applied rules: {applied.length ? applied.map((rule) => rule.objectID).join(', ') : 'none'}</p>;
          }}
          actions={
            editable
              ? (hit) => (
                  <>
                    <button type="button" aria-label={`Pin ${hit.objectID}`} onClick={() => addResult(hit.objectID, 'pin')}>
                      Pin
                    </button>
                    <button type="button" aria-label={`Hide ${hit.objectID}`} onClick={() => addResult(hit.objectID, 'hide')}>
                      Hide
                    </button>
                  </>
                )
              : undefined
          }
        />
      </div>
    </Screen>
  );
}
