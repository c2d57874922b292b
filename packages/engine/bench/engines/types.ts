import type { Product } from '@vitrine/protocol';
import type { CategoryQuery, DisjunctiveQuery, FilteredQuery, TextQuery } from '../workload.ts';

/** One engine under test. Each query returns the number of hits it found, as a sanity check across engines. */
export interface BenchEngine {
  readonly name: string;
  build(products: Product[]): void | Promise<void>;
  a(query: TextQuery): number;
  b(query: FilteredQuery): number;
  c(query: CategoryQuery): number;
  d(query: DisjunctiveQuery): number;
}
