/**
 * The A/B testing API (`/2/abtests`), as the `algoliasearch` v5 abtesting client (`@algolia/client-abtesting`)
 * sends and reads it. There is no OpenAPI file for it among our references: the client's types are the contract.
 * Rates and significances are `null` when there is nothing to compute them from.
 */

/** `active` while traffic is split; `stopped` by a call; `expired` once `endAt` passed; `failed` is never given. */
export type ABTestStatus = 'active' | 'stopped' | 'expired' | 'failed';

/** One variant as `addABTests` takes it: an index, its share of the traffic, and (same index) extra parameters. */
export interface AddABTestsVariant {
  index: string;
  trafficPercentage: number;
  description?: string;
  /** Search parameters added to this variant's searches; only when both variants use the same index. */
  customSearchParameters?: Record<string, unknown>;
}

export interface AddABTestsRequest {
  name: string;
  variants: AddABTestsVariant[];
  /** RFC 3339, in the future. */
  endAt: string;
}

/** What `addABTests`, `stopABTest` and `deleteABTest` answer. */
export interface ABTestResponse {
  index: string;
  abTestID: number;
  taskID: number;
}

export interface ABTestCurrency {
  currency: string;
  revenue: number;
}

/** One variant's figures, as `getABTest` and `listABTests` report them. */
export interface ABTestVariant {
  index: string;
  trafficPercentage: number;
  description?: string;
  customSearchParameters?: Record<string, unknown>;
  searchCount: number | null;
  trackedSearchCount: number;
  userCount: number | null;
  trackedUserCount: number | null;
  noResultCount: number | null;
  clickCount: number;
  conversionCount: number;
  addToCartCount: number;
  purchaseCount: number;
  clickThroughRate: number | null;
  conversionRate: number | null;
  addToCartRate: number | null;
  purchaseRate: number | null;
  averageClickPosition: number | null;
  currencies: Record<string, ABTestCurrency>;
}

export interface ABTest {
  abTestID: number;
  name: string;
  status: ABTestStatus;
  createdAt: string;
  updatedAt: string;
  endAt: string;
  stoppedAt: string | null;
  /** Confidence that the variants' rates differ (1 − the two-sided p-value of a two-proportion z-test), or null. */
  clickSignificance: number | null;
  conversionSignificance: number | null;
  addToCartSignificance: number | null;
  purchaseSignificance: number | null;
  variants: ABTestVariant[];
}

export interface ListABTestsResponse {
  /** Null when no test matches, as Algolia answers. */
  abtests: ABTest[] | null;
  /** Tests in this page. */
  count: number;
  /** Tests matching the prefix and suffix. */
  total: number;
}

/** The search response's fields of a search that an A/B test routed. */
export interface ABTestAssignment {
  abTestID: number;
  /** 1 for the first variant (A, the control), 2 for the second. */
  abTestVariantID: number;
}
