/**
 * Recommend rules: per model of the chosen index, list and search them, create/edit (as JSON, Algolia's
 * RecommendRule format) and delete. They pin, hide, filter, boost or bury what `/recommendations` answers
 * (related products and bought-together on product pages, trending items). A server without the Recommend rules
 * API answers 404: the screen says so instead of failing.
 */
import { useEffect, useMemo, useState } from 'react';
import type { RecommendModels, RecommendRule } from 'algoliasearch';
import { adminRecommendClient } from '../lib/search-client.ts';
import { can, describeError, statusOf } from './access.ts';
import { useConsole } from './context.ts';
import { parseRecordJson } from './record-json.ts';
import { conditionSummary, consequenceSummary, newRecommendRule, recommendRuleModels } from './rules/recommend-rule-draft.ts';
import { publishWith } from './tasks.ts';
import { ErrorAlert, JsonDraft, OutcomeLine, RowActions, Screen, useAction } from './ui.tsx';

type Load = { state: 'loading' } | { state: 'ready'; rules: RecommendRule[] } | { state: 'unavailable' } | { state: 'error'; message: string };

export default function RecommendRulesScreen() {
  const { client, access, indexName } = useConsole();
  const recommend = useMemo(() => adminRecommendClient(client), [client]);
  const [model, setModel] = useState<RecommendModels>('related-products');
  const [query, setQuery] = useState('');
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [version, setVersion] = useState(0);
  const [draft, setDraft] = useState<string | undefined>();
  const [validation, setValidation] = useState('');
  const [outcome, run] = useAction();
  const editable = can(access, 'editSettings');

  useEffect(() => {
    let current = true;
    recommend.searchRecommendRules({ indexName, model, searchRecommendRulesParams: { query, hitsPerPage: 100 } }).then(
      (response) => current && setLoad({ state: 'ready', rules: response.hits }),
      (error: unknown) => {
        if (!current) return;
        setLoad(statusOf(error) === 404 ? { state: 'unavailable' } : { state: 'error', message: describeError(error, 'read Recommend rules', 'settings') });
      },
    );
    return () => {
      current = false;
    };
  }, [recommend, indexName, model, query, version]);

  if (load.state === 'unavailable') {
    return (
      <Screen title="Recommend rules" intro="Recommend rules pin, hide, filter, boost or bury the recommendations of a model.">
        <p className="vt-admin-empty" role="status">
          Recommend rules are not available on this server (it answers 404 for Algolia’s Recommend rules endpoints).
        </p>
      </Screen>
    );
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
      setVersion((n) => n + 1);
    }
  };

  const remove = (objectID: string) =>
    run({ action: 'change Recommend rules', acl: 'editSettings', busy: 'Deleting Recommend rule…', done: `Recommend rule ${objectID} deleted and published.` }, async () => {
      const { taskID } = await recommend.deleteRecommendRule({ indexName, model, objectID });
      await published(taskID, `Delete Recommend rule ${objectID} (${model})`);
      setVersion((n) => n + 1);
    });

  return (
    <Screen title="Recommend rules" intro={`Rules of ${indexName}'s recommendations, per model: pin or hide items, filter, boost or bury them.`}>
      {load.state === 'error' && <ErrorAlert message={load.message} />}
      <OutcomeLine outcome={outcome} />
      <div className="vt-console-inline">
        <select aria-label="Model" value={model} onChange={(event) => setModel(event.target.value as RecommendModels)}>
          {recommendRuleModels.map((entry) => (
            <option key={entry.model} value={entry.model}>
              {entry.label}
            </option>
          ))}
        </select>
        <input type="search" aria-label="Search Recommend rules" placeholder="Search rules" value={query} onChange={(event) => setQuery(event.target.value)} />
        {editable && (
          <button type="button" onClick={() => setDraft(JSON.stringify(newRecommendRule(), null, 2))}>
            New rule
          </button>
        )}
      </div>
      {draft !== undefined && (
        <JsonDraft title="Recommend rule" label="Recommend rule JSON" value={draft} onChange={setDraft} problem={validation} onSave={() => void save()} onClose={() => setDraft(undefined)} />
      )}
      <table className="vt-console-table" aria-label="Recommend rules">
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">When</th>
            <th scope="col">Does</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {(load.state === 'ready' ? load.rules : []).map((rule) => ({ ...rule, objectID: rule.objectID ?? '' })).map((rule) => (
            <tr key={rule.objectID}>
              <th scope="row">
                {rule.description || rule.objectID}
                {rule.enabled === false ? ' (disabled)' : ''}
              </th>
              <td>{conditionSummary(rule)}</td>
              <td>{consequenceSummary(rule)}</td>
              <td className="vt-console-actions">
                {editable && <RowActions name={rule.objectID} onEdit={() => setDraft(JSON.stringify(withoutMetadata(rule), null, 2))} onDelete={() => void remove(rule.objectID)} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Screen>
  );
}

/** The rule as an operator edits it: `_metadata` is the server's to set. */
function withoutMetadata(rule: RecommendRule): RecommendRule {
  const { _metadata: _ignored, ...rest } = rule;
  return rest;
}
