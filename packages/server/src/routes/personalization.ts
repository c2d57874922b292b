/**
 * The Personalization API's routes, as the `algoliasearch` v5 personalization client calls them (ACL
 * `recommendation`, as Algolia): the strategy (`GET` / `POST /1/strategies/personalization`), a user's profile
 * (`GET /1/profiles/personalization/{userToken}`) and its deletion (`DELETE /1/profiles/{userToken}`, which
 * deletes the user's events, of every index: the key must reach them all). What they do is `@vitrine/insights`'
 * (`personalization/`).
 * What a search needs of it (the searching user's affinities) is attached with the rest of what the shop learned
 * (`search/learning.ts`).
 */
import type { FastifyInstance } from 'fastify';
import { parseAttributesForFaceting } from '@vitrine/engine';
import { requireAllIndexes } from '../auth/authenticate.ts';
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
