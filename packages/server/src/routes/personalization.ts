/**
 * The Personalization API's routes, as the `algoliasearch` v5 personalization client calls them (ACL
 * `recommendation`, as Algolia): the strategy (`GET` / `POST /1/strategies/personalization`), a user's profile
 * (`GET /1/profiles/personalization/{userToken}`) and its deletion (`DELETE /1/profiles/{userToken}`, which
 * deletes the user's events, of every index: the key must reach them all). What they do is `@vitrine/insights`'
 * (`personalization/`).
 *
 * And what a search needs of it (`personalizeQueries`): each query that may be personalized gets the searching
 * user's affinities, looked up here on the main thread (a cached profile, or one row of the profiles file), and
 * carries them to the search thread; the engine applies them (`rank/personalization.ts` of the engine).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseAttributesForFaceting } from '@vitrine/engine';
import type { Personalization } from '@vitrine/insights';
import { requireAllIndexes } from '../auth/authenticate.ts';
import type { QuerySpec } from '../search/queries.ts';
import type { IndexRegistry } from '../storage/registry.ts';
import type { RouteDeps } from './deps.ts';

type TokenParams = { userToken: string };

/** Whether some index counts or filters on `name` (its `attributesForFaceting`, whatever the modifier). */
function facetOfSomeIndex(registry: IndexRegistry, name: string): boolean {
  return registry.all().some((entry) => {
    try {
      return parseAttributesForFaceting(entry.settings.attributesForFaceting).some((facet) => facet.attribute === name);
    } catch {
      return false;
    }
  });
}

export function personalizationRoutes(api: FastifyInstance, { insights, store }: RouteDeps): void {
  const config = { acl: 'recommendation' as const };
  api.get('/1/strategies/personalization', { config }, async () => insights.personalization.strategy());

  api.post('/1/strategies/personalization', { config }, async (request) => {
    insights.personalization.setStrategy(request.body, (name) => facetOfSomeIndex(store.registry, name));
    // The profiles follow the new strategy at once, in the background (the models' build thread, then the profiles').
    void insights.rebuildModels().catch((error: unknown) => request.log.warn({ err: error }, 'model rebuild after a strategy change failed'));
    return { message: 'Strategy was successfully updated' };
  });

  api.get<{ Params: TokenParams }>('/1/profiles/personalization/:userToken', { config }, async (request) => insights.personalization.profile(request.params.userToken));

  api.delete<{ Params: TokenParams }>('/1/profiles/:userToken', { config }, async (request) => {
    // The profile is made of the user's events of every index: only a key that may touch every index may ask.
    requireAllIndexes(request.auth!);
    return insights.deleteUserEvents(request.params.userToken);
  });
}

/**
 * Gives each default query that may be personalized (`enablePersonalization` true, or not false and the index's
 * setting on) the searching user's affinities: the query's `userToken`, else the `X-Algolia-UserToken` header.
 */
export function personalizeQueries(queries: QuerySpec[], request: FastifyRequest, personalization: Personalization, registry: IndexRegistry): void {
  const header = request.headers['x-algolia-usertoken'];
  for (const query of queries) {
    if (query.type !== 'default') continue;
    const params = query.params;
    const asked = params.enablePersonalization as unknown;
    if (asked === false || asked === 'false') continue;
    if (asked !== true && asked !== 'true') {
      const entry = registry.get(query.indexName);
      const override = entry === undefined ? undefined : registry.searchSettingsOf(entry);
      if ((override?.enablePersonalization ?? entry?.settings.enablePersonalization) !== true) continue;
    }
    const userToken = typeof params.userToken === 'string' ? params.userToken : typeof header === 'string' ? header : undefined;
    const input = personalization.searchInput(userToken);
    if (input !== undefined) query.personalization = input;
  }
}
