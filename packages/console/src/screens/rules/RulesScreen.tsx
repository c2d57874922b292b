/**
 * Rules: list and search, create/edit with a form (rule-form.ts: query condition, context, filter; pins and
 * hides picked from the live preview, banner, facet filters and boosts, redirect, validity) or as Algolia's JSON
 * (the advanced mode, in sync with the form), and delete. The preview shows which rules applied
 * (`appliedRules`). A server without the Rules API answers 404: the screen says so instead of failing.
 */
import { useState } from 'react';
import type { Rule } from 'algoliasearch';
import { can, describeError, statusOf } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { publish } from '../../api/tasks.ts';
import { RowActions } from '../../shared/confirm.tsx';
import { Table } from '../../shared/DataTable.tsx';
import { DraftForm } from '../../shared/DraftForm.tsx';
import { Preview } from '../../shared/Preview.tsx';
import { ListToolbar, Screen, Unavailable } from '../../shared/Screen.tsx';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { useFormJsonDraft } from '../../shared/use-form-json.ts';
import { useLoad } from '../../shared/use-load.ts';
import { withoutServerFields } from '../../lib/canonical.ts';
import { withResult } from './rule-draft.ts';
import { emptyRuleForm, formProblem, formToRule, ruleToForm, withPicked } from './rule-form.ts';
import { RuleFields } from './RuleForm.tsx';

const intro = 'Rules change results for chosen queries: pin, hide, filter or boost, show a banner, redirect.';
const codec = { toForm: ruleToForm, fromForm: formToRule };

/** One line for the list: when the rule applies. */
function conditionSummary(rule: Rule): string {
  const parts = (rule.conditions ?? []).map((condition) =>
    [condition.anchoring && `${condition.anchoring} “${condition.pattern ?? ''}”`, condition.context && `in ${condition.context}`, condition.filters && `with ${condition.filters}`].filter(Boolean).join(' '),
  );
  return parts.join('; ') || 'every search';
}

export default function RulesScreen() {
  const { client, access, indexName } = useConsole();
  const [query, setQuery] = useState('');
  const [version, setVersion] = useState(0);
  const [load] = useLoad(() => client.searchRules({ indexName, searchRulesParams: { query, hitsPerPage: 100 } }), [client, indexName, query, version]);
  const [draft, open, openForm] = useFormJsonDraft(codec);
  const [validation, setValidation] = useState('');
  const [previewQuery, setPreviewQuery] = useState('');
  const [outcome, run] = useAction();
  const editable = can(access, 'editSettings');

  if (load.state === 'error' && statusOf(load.error) === 404) return <Unavailable title="Rules" intro={intro} what="Rules" endpoints="rules" />;

  const save = async () => {
    if (!draft) return;
    const current = draft.current();
    const problem = !current.ok ? current.reason : draft.form ? formProblem(draft.form) : typeof current.item.objectID === 'string' && current.item.objectID ? '' : 'A rule needs an objectID.';
    setValidation(problem);
    if (!current.ok || problem) return;
    const rule = current.item;
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

  /** A rule started from the preview applies to the query typed there. */
  const newForm = () => emptyRuleForm(`rule-${Date.now()}`, previewQuery);

  const pick = (objectID: string, action: 'pin' | 'hide') => {
    if (!draft) return openForm(withPicked(newForm(), objectID, action));
    if (draft.form) return draft.setForm(withPicked(draft.form, objectID, action));
    const current = draft.current();
    if (!current.ok) return setValidation('Fix the rule’s JSON before adding results to it.');
    draft.setText(JSON.stringify(withResult(current.item, objectID, action), null, 2));
  };

  return (
    <Screen title="Rules" intro={`Rules of ${indexName}: for matching queries, pin or hide results, filter or boost, show a banner, redirect.`}>
      {load.state === 'error' && <ErrorAlert message={describeError(load.error, 'read rules', 'settings')} />}
      <OutcomeLine outcome={outcome} />
      <ListToolbar label="Search rules" query={query} onQuery={setQuery}>
        {editable && (
          <button type="button" onClick={() => openForm(newForm())}>
            New rule
          </button>
        )}
      </ListToolbar>
      {draft && (
        <DraftForm name="Rule" draft={draft} fields={(form, onChange) => <RuleFields form={form} onChange={onChange} />} problem={validation} save={() => void save()} close={() => open(undefined)} cancel="Close" />
      )}
      <div className="vt-console-columns vt-console-columns--wide">
        <Table
          label="Rules"
          rows={load.state === 'ready' ? load.value.hits : []}
          rowKey={(rule) => rule.objectID}
          columns={[
            { label: 'Rule', cell: (rule) => `${rule.description || rule.objectID}${rule.enabled === false ? ' (disabled)' : ''}` },
            { label: 'Condition', cell: conditionSummary },
            {
              label: 'Actions',
              actions: true,
              cell: (rule) => editable && <RowActions name={rule.objectID} onEdit={() => open(withoutServerFields(rule))} onDelete={() => void remove(rule.objectID)} />,
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
                    <button type="button" aria-label={`Pin ${hit.objectID}`} onClick={() => pick(hit.objectID, 'pin')}>
                      Pin
                    </button>
                    <button type="button" aria-label={`Hide ${hit.objectID}`} onClick={() => pick(hit.objectID, 'hide')}>
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
