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
   * The same engine and index answering without learning (`vitrine+learning` only): timed query by query beside
   * the learning searches, alternately first and second, so learning's cost is read without the noise between
   * two processes (heap layout, the machine's other work).
   */
  withoutLearning?: Pick<BenchEngine, 'a' | 'b' | 'c' | 'd'>;
}
