import type { IncomingRecord } from './records.ts';

export type BatchAction =
  | 'addObject'
  | 'updateObject'
  | 'partialUpdateObject'
  | 'partialUpdateObjectNoCreate'
  | 'deleteObject'
  | 'delete'
  | 'clear';

export interface BatchOperation {
  action: BatchAction;
  body?: IncomingRecord;
}
/** `POST /1/indexes/{index}/batch`. */
export interface BatchBody {
  requests: BatchOperation[];
}
/** `POST /1/indexes/*\/batch`: every operation names its index. */
export interface MultiBatchBody {
  requests: Array<BatchOperation & { indexName: string }>;
}

/** Built-in operations of partial updates: `{ "stock": { "_operation": "Decrement", "value": 1 } }`. */
export type BuiltInOperationType =
  | 'Increment'
  | 'Decrement'
  | 'Add'
  | 'Remove'
  | 'AddUnique'
  | 'IncrementFrom'
  | 'IncrementSet';
export interface BuiltInOperation {
  _operation: BuiltInOperationType;
  value: unknown;
}

/** What every write answers: the task to wait for. */
export interface TaskInfo {
  taskID: number;
  updatedAt?: string;
  createdAt?: string;
  deletedAt?: string;
  objectID?: string;
  objectIDs?: string[];
}
export interface MultiTaskInfo {
  taskID: Record<string, number>;
  objectIDs: string[];
}
export interface TaskStatus {
  status: 'published' | 'notPublished';
  pendingTask?: boolean;
}
