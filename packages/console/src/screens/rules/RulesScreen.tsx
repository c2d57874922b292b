/**
 * Rules: list and search, create/edit (as JSON, Algolia's rule format) and delete, with a live preview showing
 * which rules applied (`appliedRules`); clicking Pin or Hide on a preview result adds it to the rule being edited.
 * A server without the Rules API answers 404: the screen says so instead of failing.
 */
import { useState } from 'react';
import type { Rule } from 'algoliasearch';
import { can, describeError, statusOf } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { publish } from '../../api/tasks.ts';
import { parseRecordJson } from '../../lib/record-json.ts';
import { RowActions } from '../../shared/confirm.tsx';
import { Table } from '../../shared/DataTable.tsx';
import { JsonDraft } from '../../shared/form.tsx';
import { Preview } from '../../shared/Preview.tsx';
import { ListToolbar, Screen, Unavailable } from '../../shared/Screen.tsx';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { useLoad } from '../../shared/use-load.ts';
import { newRule, withResult } from './rule-draft.ts';

export default function RulesScreen() {
  const { client, access, indexName } = useConsole();
  const [query, setQuery] = useState('');
  const [version, setVersion] = useState(0);
  const [load] = useLoad(() => client.searchRules({ indexName, searchRulesParams: { query, hitsPerPage: 100 } }), [client, indexName, query, version]);
  const [draft, setDraft] = useState<string | undefined>();
  const [validation, setValidation] = useState('');
  const [previewQuery, setPreviewQuery] = useState('');
  const [outcome, run] = useAction();
  const editable = can(access, 'editSettings');

  if (load.state === 'error' && statusOf(load.error) === 404) {
    return <Unavailable title="Rules" intro="Rules change results for chosen queries: pin, hide, filter, or add data." what="Rules" endpoints="rules" />;
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
      {load.state === 'error' && <ErrorAlert message={describeError(load.error, 'read rules', 'settings')} />}
      <OutcomeLine outcome={outcome} />
      <ListToolbar label="Search rules" query={query} onQuery={setQuery}>
        {editable && (
          <button type="button" onClick={() => setDraft(JSON.stringify(newRule(previewQuery), null, 2))}>
            New rule
          </button>
        )}
      </ListToolbar>
      {draft !== undefined && (
        <JsonDraft title="Rule" label="Rule JSON" value={draft} onChange={setDraft} problem={validation} onSave={() => void save()} onClose={() => setDraft(undefined)} />
      )}
      <div className="vt-console-columns vt-console-columns--wide">
        <Table
          label="Rules"
          rows={load.state === 'ready' ? load.value.hits : []}
          rowKey={(rule) => rule.objectID}
          columns={[
            { label: 'Rule', cell: (rule) => rule.description || rule.objectID },
            { label: 'Condition', cell: (rule) => (rule.conditions ?? []).map((condition) => `${condition.anchoring ?? ''} “${condition.pattern ?? ''}”`).join('; ') },
            {
              label: 'Actions',
              actions: true,
              cell: (rule) => editable && <RowActions name={rule.objectID} onEdit={() => setDraft(JSON.stringify(rule, null, 2))} onDelete={() => void remove(rule.objectID)} />,
            },
          ]}
        />
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
