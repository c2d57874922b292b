/**
 * Operations of the write log. Every write the API accepts becomes one operation, validated before it is
 * logged, then applied to the in-memory state by `applyOp`. Everything an operation needs to be replayed
 * identically is inside it: generated objectIDs and the acceptance time (`at`) are fixed when it is accepted.
 */
import type {
  BatchAction,
  DictionaryEntry,
  DictionaryName,
  DictionarySettings,
  IncomingRecord,
  IndexSettings,
  RecommendRule,
  RecommendRuleModel,
  Rule,
  SearchParams,
  SynonymHit,
} from '@vitrine/protocol';
import type { FilledVector } from './vector-fill.ts';

export interface LoggedBatchRequest {
  indexName: string;
  /** A caller's action, or `fillVector`: the server's own, a vector a rest embedder made (`storage/vector-fill.ts`). */
  action: BatchAction | 'fillVector';
  body?: IncomingRecord;
  /** For partial updates: create the record when missing (`partialUpdateObject`) or not (`…NoCreate`). */
  createIfNotExists?: boolean;
  /** For `fillVector`: the embedder, the hash of the text embedded and the vector. */
  vector?: FilledVector;
}

export type Op =
  | { kind: 'batch'; at: string; requests: LoggedBatchRequest[] }
  | { kind: 'settings'; at: string; indexName: string; settings: IndexSettings; forwardToReplicas: boolean }
  | { kind: 'deleteIndex'; at: string; indexName: string }
  | { kind: 'deleteBy'; at: string; indexName: string; params: SearchParams }
  | {
      kind: 'operation';
      at: string;
      indexName: string;
      operation: 'copy' | 'move';
      destination: string;
      scope?: Array<'settings' | 'synonyms' | 'rules'>;
    }
  | {
      kind: 'synonyms';
      at: string;
      indexName: string;
      action: 'save' | 'delete' | 'clear';
      hits?: SynonymHit[];
      /** With `save`: drop every existing synonym first. */
      replaceExisting?: boolean;
      objectID?: string;
      forwardToReplicas: boolean;
    }
  | {
      kind: 'rules';
      at: string;
      indexName: string;
      action: 'save' | 'delete' | 'clear';
      rules?: Rule[];
      /** With `save`: drop every existing rule first (`clearExistingRules`). */
      clearExisting?: boolean;
      objectID?: string;
      forwardToReplicas: boolean;
    }
  | {
      /** One index and model's Recommend rules (`storage/recommend-rules.ts`): saved in a batch, or one deleted. */
      kind: 'recommendRules';
      at: string;
      indexName: string;
      model: RecommendRuleModel;
      action: 'save' | 'delete';
      rules?: RecommendRule[];
      /** With `save`: drop every existing rule of the model first (`clearExistingRules`). */
      clearExisting?: boolean;
      objectID?: string;
    }
  | {
      /** Application-wide: one dictionary's custom entries added or deleted, in order. */
      kind: 'dictionaryEntries';
      at: string;
      dictionaryName: DictionaryName;
      /** Drop every custom entry of the dictionary first (`clearExistingDictionaryEntries`). */
      clearExisting: boolean;
      requests: Array<{ action: 'addEntry'; entry: DictionaryEntry } | { action: 'deleteEntry'; objectID: string }>;
    }
  | { kind: 'dictionarySettings'; at: string; settings: DictionarySettings };

/** Names of the indexes an operation touches, for per-index task status and pending counts. */
export function opIndexNames(op: Op): string[] {
  switch (op.kind) {
    case 'batch':
      return [...new Set(op.requests.map((r) => r.indexName))];
    case 'operation':
      return [op.indexName, op.destination];
    case 'dictionaryEntries':
    case 'dictionarySettings':
    case 'recommendRules':
      // Application-wide: no index's pending count grows (Algolia's dictionary tasks are application tasks); a
      // Recommend rule is kept apart from its index and changes nothing of it.
      return [];
    default:
      return [op.indexName];
  }
}

/** Settings whose change makes the engine rebuild an index's structures, or copy records to a detached replica. */
const REBUILDING_SETTINGS = ['searchableAttributes', 'attributesForFaceting', 'separatorsToIndex', 'replicas'];

/**
 * What replaying an operation costs, in records indexed: the records a batch carries, the synonyms or rules it
 * saves, and the whole index for what copies or rebuilds one (`recordsOf` gives an index's size before the
 * operation). Drives the snapshot cadence, which bounds the replay after a crash (docs/RELIABILITY.md).
 */
export function opWeight(op: Op, recordsOf: (indexName: string) => number = () => 0): number {
  switch (op.kind) {
    case 'batch':
      return op.requests.length;
    case 'synonyms':
      return op.hits?.length ?? 1;
    case 'rules':
    case 'recommendRules':
      return op.rules?.length ?? 1;
    case 'dictionaryEntries':
      return Math.max(1, op.requests.length);
    case 'operation':
      return op.operation === 'copy' ? 1 + recordsOf(op.indexName) : 1;
    case 'settings':
      return REBUILDING_SETTINGS.some((key) => key in op.settings) ? 1 + recordsOf(op.indexName) : 1;
    default:
      return 1;
  }
}
