/**
 * Personalization: the strategy (which events and facets make a shopper's affinities, and how much they weigh in
 * searches), edited as Algolia's JSON, and a shopper's profile looked up by user token (affinities per facet
 * value, last event), which can be deleted. Through the official personalization client (`initPersonalization`),
 * so it works against hosted Algolia too.
 */
import { useState } from 'react';
import type { FormEvent } from 'react';
import type { PersonalizationStrategyParams } from 'algoliasearch';
import { statusOf } from '../../api/access.ts';
import { useConsole, useSetup } from '../../api/context.ts';
import { Table } from '../../shared/DataTable.tsx';
import type { Column } from '../../shared/DataTable.tsx';
import { JsonArea, TextField } from '../../shared/form.tsx';
import { Screen } from '../../shared/Screen.tsx';
import { OutcomeLine, useAction } from '../../shared/status.tsx';
import { useLoad } from '../../shared/use-load.ts';
import { personalizationClient } from './personalization-client.ts';

/** What a new strategy starts from: the events the storefront sends (`storefront/src/lib/insights.ts`). */
const TEMPLATE: PersonalizationStrategyParams = {
  eventsScoring: [
    { eventName: 'Product Viewed', eventType: 'view', score: 10 },
    { eventName: 'Product Clicked', eventType: 'click', score: 30 },
    { eventName: 'Product Added To Cart', eventType: 'conversion', score: 60 },
    { eventName: 'Order Placed', eventType: 'conversion', score: 100 },
  ],
  facetsScoring: [{ facetName: 'brand', score: 100 }],
  personalizationImpact: 50,
};

type Affinity = { facet: string; value: string; score: number };
type Profile = { userToken: string; lastEventAt: string; affinities: Affinity[] };

const affinityColumns: Array<Column<Affinity>> = [
  { label: 'Facet', cell: (row) => row.facet },
  { label: 'Value', cell: (row) => row.value, header: true },
  { label: 'Score', cell: (row) => row.score, numeric: true },
];

type EventScore = PersonalizationStrategyParams['eventsScoring'][number];
type FacetScore = PersonalizationStrategyParams['facetsScoring'][number];
const eventColumns: Array<Column<EventScore>> = [
  { label: 'Event', cell: (row) => row.eventName, header: true },
  { label: 'Type', cell: (row) => row.eventType },
  { label: 'Score', cell: (row) => row.score, numeric: true },
];
const facetColumns: Array<Column<FacetScore>> = [
  { label: 'Facet', cell: (row) => row.facetName, header: true },
  { label: 'Score', cell: (row) => row.score, numeric: true },
];

/** The strategy in force, as tables: what the JSON below says, readable at a glance. */
function StrategySummary({ strategy }: { strategy: PersonalizationStrategyParams }) {
  return (
    <>
      <p>Impact on searches: {strategy.personalizationImpact} of 100.</p>
      <div className="vt-admin-tables">
        <Table label="Events scored" rows={strategy.eventsScoring} rowKey={(row) => `${row.eventType}\u0000${row.eventName}`} columns={eventColumns} />
        <Table label="Facets scored" rows={strategy.facetsScoring} rowKey={(row) => row.facetName} columns={facetColumns} />
      </div>
    </>
  );
}

export default function PersonalizationScreen() {
  const { client } = useConsole();
  const { config } = useSetup();
  const personalization = personalizationClient(client, config.provider);
  const [text, setText] = useState('');
  const [outcome, run] = useAction();
  const [strategy, reload] = useLoad(async (): Promise<PersonalizationStrategyParams | 'none'> => {
    try {
      const current = await personalization.getPersonalizationStrategy();
      setText(JSON.stringify(current, null, 2));
      return current;
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      setText(JSON.stringify(TEMPLATE, null, 2));
      return 'none' as const;
    }
  }, [client]);
  const [userToken, setUserToken] = useState('');
  const [profile, setProfile] = useState<Profile | 'none' | null>(null);

  const save = () =>
    run({ action: 'save the strategy', acl: 'recommendation', busy: 'Saving the strategy…', done: 'Strategy saved: profiles follow at the next build.' }, async () => {
      let parsed: PersonalizationStrategyParams;
      try {
        parsed = JSON.parse(text) as PersonalizationStrategyParams;
      } catch {
        throw new Error('The strategy is not valid JSON.');
      }
      await personalization.setPersonalizationStrategy(parsed);
      reload();
    });

  const lookUp = (event: FormEvent) => {
    event.preventDefault();
    const token = userToken.trim();
    if (token === '') return;
    void run({ action: 'read the profile', acl: 'recommendation', busy: 'Reading the profile…', done: `Profile of ${token} read.` }, async () => {
      try {
        const found = await personalization.getUserTokenProfile({ userToken: token });
        const scores = found.scores as Record<string, Record<string, number>>;
        const affinities = Object.entries(scores).flatMap(([facet, values]) => Object.entries(values).map(([value, score]) => ({ facet, value, score })));
        setProfile({ userToken: token, lastEventAt: found.lastEventAt, affinities: affinities.sort((a, b) => b.score - a.score) });
      } catch (error) {
        if (statusOf(error) !== 404) throw error;
        setProfile('none');
      }
    });
  };

  const remove = (token: string) =>
    run({ action: 'delete the profile', acl: 'recommendation', busy: 'Deleting the profile…', done: `Profile of ${token} deleted, with the shopper's events.` }, async () => {
      await personalization.deleteUserProfile({ userToken: token });
      setProfile('none');
    });

  return (
    <Screen title="Personalization" intro="Which shopper events and facets make each shopper's affinities, how much they reorder that shopper's results, and a shopper's profile.">
      <OutcomeLine outcome={outcome} />
      <h3>Strategy</h3>
      {strategy.state === 'loading' && <p role="status">Loading the strategy…</p>}
      {strategy.state === 'error' && <p className="vt-admin-empty">The strategy could not be read: {String((strategy.error as Error).message ?? strategy.error)}</p>}
      {strategy.state === 'ready' && (
        <>
          <p className="vt-admin-hint">
            {strategy.value === 'none' ? 'No strategy yet: this one is a starting point. ' : ''}
            eventsScoring: events by name and type (click, conversion, view), score 1–100. facetsScoring: facets of an index, score 1–100.
            personalizationImpact: 0 (off) to 100. Searches use it with enablePersonalization (the index setting or the parameter) and a userToken.
          </p>
          {strategy.value !== 'none' && <StrategySummary strategy={strategy.value} />}
          <JsonArea label="Personalization strategy (JSON)" value={text} onChange={setText} />
          <div className="vt-console-actions">
            <button type="button" className="vt-primary" onClick={() => void save()}>
              Save strategy
            </button>
          </div>
        </>
      )}
      <h3>Shopper profile</h3>
      <form className="vt-console-inline" onSubmit={lookUp}>
        <TextField label="User token" value={userToken} onChange={setUserToken} placeholder="the shopper's userToken" />
        <button type="submit">Look up</button>
      </form>
      {profile === 'none' && <p className="vt-admin-empty">No profile for this user token.</p>}
      {profile !== null && profile !== 'none' && (
        <>
          <p>
            Last event: {new Date(profile.lastEventAt).toLocaleString('en-US')}{' '}
            <button type="button" className="vt-danger" onClick={() => void remove(profile.userToken)}>
              Delete profile
            </button>
          </p>
          <Table label={`Affinities of ${profile.userToken}`} rows={profile.affinities} rowKey={(row) => `${row.facet}\u0000${row.value}`} columns={affinityColumns} />
        </>
      )}
    </Screen>
  );
}
