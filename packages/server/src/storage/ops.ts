/**
 * Operations of the write log. Every write the API accepts becomes one operation, validated before it is
 * logged, then applied to the in-memory state by `applyOp`. Everything an operation needs to be replayed
 * identically is inside it: generated objectIDs and the acceptance time (`at`) are fixed when it is accepted.
 */
import type { BatchAction, IncomingRecord, IndexSettings, Rule, SearchParams, SynonymHit } from '@vitrine/protocol';

export interface LoggedBatchRequest {
  indexName: string;
  action: BatchAction;
  body?: IncomingRecord;
  /** For partial updates: create the record when missing (`partialUpdateObject`) or not (`…NoCreate`). */
  createIfNotExists?: boolean;
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
    };

/** Names of the indexes an operation touches, for per-index task status and pending counts. */
export function opIndexNames(op: Op): string[] {
  switch (op.kind) {
    case 'batch':
      return [...new Set(op.requests.map((r) => r.indexName))];
    case 'operation':
      return [op.indexName, op.destination];
    default:
      return [op.indexName];
  }
}

/** Number of records an operation carries: drives the snapshot cadence. */
export function opWeight(op: Op): number {
  return op.kind === 'batch' ? op.requests.length : op.kind === 'synonyms' ? (op.hits?.length ?? 1) : op.kind === 'rules' ? (op.rules?.length ?? 1) : 1;
}
