/**
 * What the writes to a store changed, by store version: whether records came or went, and which top-level
 * attributes of existing records took new values. The result cache (`search/result-cache.ts`) asks it whether
 * a result computed at some version still holds: a facet-only result (no hits) depends on the set of records
 * and on a few attributes (searchable ones, filtered ones, counted facets), so a write that only changes a
 * product's popularity or stock level leaves it valid.
 *
 * Telling which attributes a replacement changed costs a parse of the replaced record, so it is only done
 * while someone relies on it (`detailed`, set by the result cache when it holds such results); otherwise a
 * replacement counts as changing every attribute, which is always safe.
 *
 * Attributes are tracked by their first path segment: `a.b` and `a.c` are both `a`. Coarser, never wrong.
 */
import type { IndexRecord } from '@vitrine/protocol';

export class ChangeLog {
  /** Whether replacements should say which attributes they changed (see the header). */
  detailed = false;
  /** The last version at which a record was added or removed. */
  membershipAt = 0;
  /** The last version at which a replacement changed attributes not told apart (`detailed` off). */
  everyAttributeAt = 0;
  private readonly attributeAt = new Map<string, number>();

  /** A record was added or removed at `version`. */
  membershipChanged(version: number): void {
    this.membershipAt = version;
  }

  /**
   * `before` was replaced by `after` at `version`. Without `before` (not parsed because `detailed` was off),
   * every attribute counts as changed.
   */
  replaced(before: IndexRecord | undefined, after: IndexRecord, version: number): void {
    if (before === undefined) {
      this.everyAttributeAt = version;
      return;
    }
    for (const key in before) if (!sameJson(before[key], after[key])) this.attributeAt.set(topLevel(key), version);
    for (const key in after) if (!Object.hasOwn(before, key)) this.attributeAt.set(topLevel(key), version);
  }

  /**
   * Whether nothing a result computed at `version` depends on changed since: the records present and the
   * `attributes` (first path segments) of every record.
   */
  unchangedSince(version: number, attributes: readonly string[]): boolean {
    if (this.membershipAt > version || this.everyAttributeAt > version) return false;
    for (const attribute of attributes) if ((this.attributeAt.get(attribute) ?? 0) > version) return false;
    return true;
  }
}

/** The part of an attribute path a change is tracked by. */
export function topLevel(attribute: string): string {
  const dot = attribute.indexOf('.');
  return dot === -1 ? attribute : attribute.slice(0, dot);
}

/** Deep equality of JSON values (key order in objects does not matter). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let keys = 0;
  for (const key in left) {
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
    keys++;
  }
  for (const _ in right) keys--;
  return keys === 0;
}
