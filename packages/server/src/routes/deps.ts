/** What route modules get from the app that mounts them (`app.ts` builds it). */
import type { Insights } from '@vitrine/insights';
import type { SearchObserver, ServerLimits } from '../config.ts';
import type { KeyStore } from '../auth/api-keys.ts';
import type { AllowedSources } from '../auth/allowed-sources.ts';
import type { ApiLogs } from '../http/api-logs.ts';
import type { CountryReader } from '../http/country.ts';
import type { AuthCaller } from '../auth/insights-caller.ts';
import type { Store } from '../storage/store.ts';
import type { ReadTarget } from '../search/reads.ts';
import type { SearchThreads } from '../search/threads.ts';
import type { QueryVectors } from '../embedders/query-vectors.ts';
import type { DocumentVectors } from '../embedders/document-vectors.ts';
import type { LocalModels } from '../embedders/local-models.ts';

export interface RouteDeps {
  store: Store;
  limits: ServerLimits;
  keys: KeyStore;
  /** The application's allowed sources (`/1/security/sources`), enforced for every request by `app.ts`. */
  sources: AllowedSources;
  onSearch?: SearchObserver;
  /** Told each search call's time on its thread (or the main thread's scheduler), in seconds: `/metrics`. */
  searchTimed?: (seconds: number) => void;
  /** Search threads, when the server runs searches off the main thread (they then hold the only copy of the records). */
  threads?: SearchThreads;
  /** Where reads of records other than search calls are answered: the search threads, or the main thread. */
  reads: ReadTarget;
  /** Events, analytics, recommendations and query suggestions (`@vitrine/insights`). */
  insights: Insights<AuthCaller>;
  /** The last requests answered, for `GET /1/logs`. */
  apiLogs: ApiLogs;
  /** The searcher's country from a trusted proxy's header, for the search log. */
  countryOf: CountryReader;
  /** Query texts embedded for hybrid searches (rest and huggingFace embedders), and records' vectors filled after writes. */
  queryVectors: QueryVectors;
  documentVectors: DocumentVectors;
  /** Local models (huggingFace embedders): settings naming one load it before they are logged. */
  localModels: LocalModels;
}
