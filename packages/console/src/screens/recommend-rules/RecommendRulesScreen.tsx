/**
 * Recommend rules: per model of the chosen index, list and search them, create/edit (as JSON, Algolia's
 * RecommendRule format) and delete. They pin, hide, filter, boost or bury what `/recommendations` answers
 * (related products and bought-together on product pages, trending items). A server without the Recommend rules
 * API answers 404: the screen says so instead of failing.
 */
import { useMemo, useState } from 'react';
import type { RecommendModels, RecommendRule } from 'algoliasearch';
import { adminRecommendClient } from '../../api/client.ts';
import { can, describeError, statusOf } from '../../api/access.ts';
import { useConsole } from '../../api/context.ts';
import { parseRecordJson } from '../../lib/record-json.ts';
import { conditionSummary, consequenceSummary, newRecommendRule, recommendRuleModels } from './recommend-rule-draft.ts';
import { publishWith } from '../../api/tasks.ts';
import { ErrorAlert, OutcomeLine, useAction } from '../../shared/status.tsx';
import { ListToolbar, Screen, Unavailable } from '../../shared/Screen.tsx';
import { Table } from '../../shared/DataTable.tsx';
import { useLoad } from '../../shared/use-load.ts';
import { RowActions } from '../../shared/confirm.tsx';
import { JsonDraft } from '../../shared/form.tsx';

export default function RecommendRulesScreen() {
  const { client, access, indexName } = useConsole();
  const recommend = useMemo(() => adminRecommendClient(client), [client]);
  const [model, setModel] = useState<RecommendModels>('related-products');
  const [query, setQuery] = useState('');
  const [draft, setDraft] = useState<string | undefined>();
  const [validation, setValidation] = useState('');
  const [outcome, run] = useAction();
  const editable = can(access, 'editSettings');

  const [load, reload] = useLoad(() => recommend.searchRecommendRules({ indexName, model, searchRecommendRulesParams: { query, hitsPerPage: 100 } }), [recommend, indexName, model, query]);

  if (load.state === 'error' && statusOf(load.error) === 404) {
    return <Unavailable title="Recommend rules" intro="Recommend rules pin, hide, filter, boost or bury the recommendations of a model." what="Recommend rules" endpoints="Recommend rules" />;
  }

  /** Resolves once the recommend API says the task is published (its own status route, as the client polls it). */
  const published = (taskID: number, label: string) =>
    publishWith(async () => {
      for (let attempt = 0; (await recommend.getRecommendStatus({ indexName, model, taskID })).status !== 'published'; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** attempt, 1000)));
      }
    }, indexName, taskID, label);

  const save = async () => {
    if (draft === undefined) return;
    const parsed = parseRecordJson(draft);
    if (!parsed.ok || typeof parsed.record.objectID !== 'string') {
      setValidation(parsed.ok ? 'A rule needs an objectID' : parsed.reason);
      return;
    }
    setValidation('');
    const rule = parsed.record as unknown as RecommendRule;
    const ok = await run({ action: 'change Recommend rules', acl: 'editSettings', busy: 'Saving Recommend rule…', done: `Recommend rule ${rule.objectID} saved and published.` }, async () => {
      const { taskID } = await recommend.batchRecommendRules({ indexName, model, recommendRule: [rule] });
      await published(taskID, `Recommend rule ${rule.objectID} (${model})`);
    });
    if (ok) {
      setDraft(undefined);
      reload();
    }
  };

  const remove = (objectID: string) =>
    run({ action: 'change Recommend rules', acl: 'editSettings', busy: 'Deleting Recommend rule…', done: `Recommend rule ${objectID} deleted and published.` }, async () => {
      const { taskID } = await recommend.deleteRecommendRule({ indexName, model, objectID });
      await published(taskID, `Delete Recommend rule ${objectID} (${model})`);
      reload();
    });

  return (
    <Screen title="Recommend rules" intro={`Rules of ${indexName}'s recommendations, per model: pin or hide items, filter, boost or bury them.`}>
      {load.state === 'error' && <ErrorAlert message={describeError(load.error, 'read Recommend rules', 'settings')} />}
      <OutcomeLine outcome={outcome} />
      <div className="vt-console-inline">
        <select aria-label="Model" value={model} onChange={(event) => setModel(event.target.value as RecommendModels)}>
          {recommendRuleModels.map((entry) => (
            <option key={entry.model} value={entry.model}>
              {entry.label}
            </option>
          ))}
        </select>
      </div>
      <ListToolbar label="Search Recommend rules" query={query} onQuery={setQuery}>
        {editable && (
          <button type="button" onClick={() => setDraft(JSON.stringify(newRecommendRule(), null, 2))}>
            New rule
          </button>
        )}
      </ListToolbar>
      {draft !== undefined && (
        <JsonDraft title="Recommend rule" label="Recommend rule JSON" value={draft} onChange={setDraft} problem={validation} onSave={() => void save()} onClose={() => setDraft(undefined)} />
      )}
      <Table
        label="Recommend rules"
        rows={load.state === 'ready' ? load.value.hits.map((rule) => ({ ...rule, objectID: rule.objectID ?? '' })) : []}
        rowKey={(rule) => rule.objectID}
        columns={[
          { label: 'Rule', cell: (rule) => `${rule.description || rule.objectID}${rule.enabled === false ? ' (disabled)' : ''}` },
          { label: 'When', cell: (rule) => conditionSummary(rule) },
          { label: 'Does', cell: (rule) => consequenceSummary(rule) },
          {
            label: 'Actions',
            actions: true,
            cell: (rule) => editable && <RowActions name={rule.objectID} onEdit={() => setDraft(JSON.stringify(withoutMetadata(rule), null, 2))} onDelete={() => void remove(rule.objectID)} />,
          },
        ]}
      />
    </Screen>
  );
}

/** The rule as an operator edits it: `_metadata` is the server's to set. */
function withoutMetadata(rule: RecommendRule): RecommendRule {
  const { _metadata: _ignored, ...rest } = rule;
  return rest;
}
