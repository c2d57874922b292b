export interface IndexInfo {
  name: string;
  createdAt: string;
  updatedAt: string;
  entries: number;
  dataSize: number;
  fileSize: number;
  lastBuildTimeS: number;
  numberOfPendingTasks: number;
  pendingTask: boolean;
  primary?: string;
  replicas?: string[];
  virtual?: boolean;
}
export interface ListIndicesResponse {
  items: IndexInfo[];
  nbPages: number;
}
export interface OperationIndexBody {
  operation: 'copy' | 'move';
  destination: string;
  scope?: Array<'settings' | 'synonyms' | 'rules'>;
}

export type SynonymType = 'synonym' | 'onewaysynonym' | 'altcorrection1' | 'altcorrection2' | 'placeholder';
export interface SynonymHit {
  objectID: string;
  type: SynonymType;
  synonyms?: string[];
  input?: string;
  word?: string;
  corrections?: string[];
  placeholder?: string;
  replacements?: string[];
}
