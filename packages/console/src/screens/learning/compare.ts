/**
 * What learning changed on a query's first page: the hits with learning off (`enableReRanking: false`,
 * `enablePersonalization: false`, query categorization's automatic boost off) beside the hits as shoppers get
 * them, each learned hit marked with its move and why (its `_rankingInfo`: re-ranking's boost, the shopper's
 * affinities, query categorization's boost, a rule's pin). Pure: the screen fetches, this compares.
 */
import type { RankingInfo } from '@vitrine/protocol';

export type ComparedHit = Record<string, unknown> & { objectID: string; _rankingInfo?: Partial<RankingInfo> };

/** The search parameters of both sides; `off` adds what turns learning off. */
export function comparisonParams(query: string, userToken: string, depth: number): { on: Record<string, unknown>; off: Record<string, unknown> } {
  const on: Record<string, unknown> = {
    query, hitsPerPage: depth, getRankingInfo: true, attributesToHighlight: [], attributesToSnippet: [],
    // The operator's look is no shopper's search: not counted, no A/B test's variant.
    analytics: false, clickAnalytics: false, enableABTest: false,
    // As the storefront searches: re-ranking and personalization together (the API alone keeps one).
    allowReRankingOnPersonalization: true,
    ...(userToken === '' ? {} : { userToken }),
  };
  const off = { ...on, enableReRanking: false, enablePersonalization: false, extensions: { queryCategorization: { enableAutoFiltering: false } } };
  return { on, off };
}

/** `new`: a learned hit learning off had not among the hits compared; `gone`: the reverse. */
export type Move = { kind: 'up' | 'down'; by: number } | { kind: 'same' } | { kind: 'new' } | { kind: 'gone' };

export interface Row {
  objectID: string;
  hit: ComparedHit;
  /** 1-based place on its side. */
  position: number;
  /** Learned rows: where learning off had it (undefined: not within the hits compared). Off rows: where learning on has it. */
  otherPosition?: number;
  move: Move;
  /** Why the learned hit stands where it does (learned rows only). */
  reasons: string[];
}

function moveOf(position: number, other: number | undefined): Move {
  if (other === undefined) return { kind: 'new' };
  if (other === position) return { kind: 'same' };
  return other > position ? { kind: 'up', by: other - position } : { kind: 'down', by: position - other };
}

const round = (value: number, digits: number) => Number(value.toFixed(digits)).toLocaleString('en-US');

/** The learned hit's reasons, from its `_rankingInfo` and the same hit's with learning off. */
export function reasonsOf(hit: ComparedHit, off: ComparedHit | undefined, move: Move): string[] {
  const info = hit._rankingInfo ?? {};
  const reasons: string[] = [];
  if (info.promoted === true) reasons.push('Pinned by a rule');
  if (info.promotedByReRanking === true) {
    const boost = info.reRanking;
    reasons.push(boost
      ? `Re-ranking: ${round(boost.clicks, 0)} clicks and ${round(boost.conversions, 0)} conversions where its positions predicted ${round(boost.expectedClicks, 1)} clicks (score ${round(boost.score, 2)})`
      : 'Re-ranking boost');
  }
  if (info.personalization !== undefined && info.personalization.score > 0) {
    reasons.push(`Personalization: affinity ${round(info.personalization.score, 0)} (step ${info.personalization.rankingScore})`);
  }
  if (typeof info.filters === 'number' && info.filters > (off?._rankingInfo?.filters ?? 0)) reasons.push("Query categorization's category boost");
  if (reasons.length === 0 && move.kind === 'down') reasons.push('Hits learning moved up came before it');
  return reasons;
}

/** Both sides' first `shown` hits as rows, compared over all the hits fetched (`on` and `off`, in order). */
export function compareHits(on: readonly ComparedHit[], off: readonly ComparedHit[], shown: number): { on: Row[]; off: Row[]; moved: number } {
  const offAt = new Map(off.map((hit, i) => [hit.objectID, i + 1]));
  const onAt = new Map(on.map((hit, i) => [hit.objectID, i + 1]));
  const offHit = new Map(off.map((hit) => [hit.objectID, hit]));
  const onRows = on.slice(0, shown).map((hit, i): Row => {
    const otherPosition = offAt.get(hit.objectID);
    const move = moveOf(i + 1, otherPosition);
    return { objectID: hit.objectID, hit, position: i + 1, otherPosition, move, reasons: reasonsOf(hit, offHit.get(hit.objectID), move) };
  });
  const offRows = off.slice(0, shown).map((hit, i): Row => {
    const otherPosition = onAt.get(hit.objectID);
    // Seen from learning off: where the hit goes once learning is on.
    const move = otherPosition === undefined ? { kind: 'gone' as const } : moveOf(otherPosition, i + 1);
    return { objectID: hit.objectID, hit, position: i + 1, otherPosition, move, reasons: [] };
  });
  return { on: onRows, off: offRows, moved: onRows.filter((row) => row.move.kind !== 'same').length };
}

/** A move in words, as the table shows it. */
export function moveText(move: Move): string {
  switch (move.kind) {
    case 'up':
      return `up ${move.by}`;
    case 'down':
      return `down ${move.by}`;
    case 'new':
      return 'new';
    case 'gone':
      return 'gone';
    default:
      return 'same';
  }
}
