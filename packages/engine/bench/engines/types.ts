import type { Product } from '@vitrine/protocol';
import type { CategoryQuery, DisjunctiveQuery, FilteredQuery, TextQuery, Workload } from '../workload.ts';

/** One engine under test. Each query returns the number of hits it found, as a sanity check across engines. */
export interface BenchEngine {
  readonly name: string;
  /**
   * Indexes the catalogue, streamed as the harness generates it (an importer never holds a whole catalogue as
   * objects): an engine that needs the documents afterwards keeps them itself, and its memory says so.
   */
  build(products: Iterable<Product>): void | Promise<void>;
  /** Untimed, after the build, before warming up: what an engine needs to know of the queries it will answer. */
  prepare?(workloads: Workload[]): void;
  a(query: TextQuery): number;
  b(query: FilteredQuery): number;
  c(query: CategoryQuery): number;
  d(query: DisjunctiveQuery): number;
  /**
   * The same engine answering without learning (`vitrine+learning` only), from a twin index `buildTwin` makes
   * (untimed, after the build's figures are taken): timed query by query beside the learning searches,
   * alternately first and second, so learning's cost is read without the noise between two processes (heap
   * layout, the machine's other work). A twin rather than the same index: on one index, whichever side ran a
   * query first paid its cold caches for both (a broad prefix's expansion, ~7 ms at a million products), and
   * those queries are the slowest 1% of a mix: the p99s read which side happened to go first.
   */
  withoutLearning?: Pick<BenchEngine, 'a' | 'b' | 'c' | 'd'>;
  buildTwin?(products: Iterable<Product>): void;
}
