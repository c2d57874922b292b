/**
 * Settings routes. `PUT` merges (a key set to null returns to its default), `forwardToReplicas` applies the
 * same change to every replica, `replicas` creates standard and `virtual(name)` replicas. `GET` shows the
 * defaults merged with what was set, as Algolia does (on a replica, unset lists are its primary's).
 */
import type { FastifyInstance } from 'fastify';
import type { IndexSettings } from '@vitrine/protocol';
import type { RouteDeps } from './deps.ts';
import { assertWriteNames, requireWriteScope } from '../auth/index-scope.ts';
import { createError } from '../errors.ts';
import type { Op } from '../storage/ops.ts';
import { validateSettingsPatch } from '../storage/validate.ts';
import { maskEmbedderSecrets } from '../storage/embedder-settings.ts';
import type { IndexEntry } from '../storage/registry.ts';

type IndexParams = { indexName: string };

/** Defaults shown by `GET …/settings` for keys never set (the engine applies the same ones). */
export const DEFAULT_SETTINGS: IndexSettings = {
  minWordSizefor1Typo: 4,
  minWordSizefor2Typos: 8,
  hitsPerPage: 20,
  maxValuesPerFacet: 100,
  paginationLimitedTo: 1000,
  // Lists as Algolia's answers show them: an empty list is what the engine reads as "not set" for each of these.
  searchableAttributes: [],
  attributesForFaceting: [],
  attributesToRetrieve: ['*'],
  unretrievableAttributes: [],
  attributesToSnippet: [],
  // attributesToHighlight is left out when unset: its default is "every searchable attribute", which no list
  // says, and an empty list would turn highlighting off for a client writing the settings back.
  ranking: ['typo', 'geo', 'words', 'filters', 'proximity', 'attribute', 'exact', 'custom'],
  customRanking: [],
  exactOnSingleWordQuery: 'attribute',
  alternativesAsExact: ['ignorePlurals', 'singleWordSynonym'],
  separatorsToIndex: '',
  removeWordsIfNoResults: 'none',
  queryType: 'prefixLast',
  highlightPreTag: '<em>',
  highlightPostTag: '</em>',
  snippetEllipsisText: '…',
  typoTolerance: true,
  allowTyposOnNumericTokens: true,
  ignorePlurals: false,
  removeStopWords: false,
  advancedSyntax: false,
  distinct: 0,
  maxFacetHits: 10,
  sortFacetValuesBy: 'count',
};

function truthy(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

/** The list settings shown as defaults (`[]`, `["*"]`) when not set. */
const LIST_DEFAULTS = Object.keys(DEFAULT_SETTINGS).filter((key) => Array.isArray(DEFAULT_SETTINGS[key]) && key !== 'ranking');

export function settingsRoutes(app: FastifyInstance, { store, limits, localModels }: RouteDeps): void {
  const registry = store.registry;

  /**
   * A replica's searches use its primary's lists where it sets none: those are shown rather than the empty
   * default, which a client copying what it reads (`vitrine sync`) would write back as "none".
   */
  const inheritedLists = (entry: IndexEntry): IndexSettings => {
    const primary = registry.primaryOf(entry);
    if (!primary) return {};
    return Object.fromEntries(LIST_DEFAULTS.filter((key) => primary.settings[key] !== undefined).map((key) => [key, primary.settings[key]]));
  };

  app.get<{ Params: IndexParams }>('/1/indexes/:indexName/settings', { config: { acl: 'settings' } }, async (request) => {
    const entry = registry.get(request.params.indexName);
    if (!entry) throw createError('INDEX_NOT_FOUND');
    const settings: IndexSettings = { ...DEFAULT_SETTINGS, ...inheritedLists(entry), ...registry.settingsOf(entry) };
    // A rest embedder's key and secret headers are never sent back (`storage/embedder-settings.ts`).
    return maskEmbedderSecrets(settings);
  });

  app.put<{ Params: IndexParams; Querystring: { forwardToReplicas?: string } }>(
    '/1/indexes/:indexName/settings',
    { config: { acl: 'editSettings', largeBody: true } },
    async (request) => {
      const updatedAt = new Date().toISOString();
      const op: Extract<Op, { kind: 'settings' }> = {
        kind: 'settings',
        at: updatedAt,
        indexName: request.params.indexName,
        settings: request.body as IndexSettings,
        forwardToReplicas: truthy(request.query.forwardToReplicas),
      };
      // The indexes it reaches first (replicas, forwarding targets): refusals of a replica list must not describe
      // indexes outside the key's scope.
      requireWriteScope(request.auth!, registry, op);
      op.settings = validateSettingsPatch(registry, request.params.indexName, request.body, limits);
      assertWriteNames(op);
      // A local model the write names (anew) is loaded and tried before the write is logged: 400 if it cannot be.
      await localModels.checkChanged(op.settings, registry.peek(request.params.indexName)?.settings, limits.embedderDocumentTimeoutMs);
      const taskID = await store.submit(op);
      return { taskID, updatedAt };
    },
  );
}
