/**
 * What the writes to a store changed, by store version: whether records came or went, and which top-level
 * attributes of existing records took new values. The result cache (`search/result-cache.ts`) asks it whether
 * a result computed at some version still holds: a facet-only result (no hits) depends on the set of records
 * and on a few attributes (searchable ones, filtered ones, counted facets), so a write that only changes a
 * product's popularity or stock level leaves it valid.
 *
 * Telling which attributes a replacement changed costs a parse of the replaced record. The store does it for
 * every replacement it may make in place (see `IndexStore.upsert`), and otherwise only while someone relies on
 * it (`detailed`, set by the result cache when it holds such results); a replacement not told apart counts as
 * changing every attribute, which is always safe.
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
   * A record was replaced at `version`, changing the attributes `changed` (first path segments, see
   * `changedTopLevels`); null when they were not told apart (the replaced record not parsed): every attribute
   * counts as changed.
   */
  replaced(changed: ReadonlySet<string> | null, version: number): void {
    if (changed === null) {
      this.everyAttributeAt = version;
      return;
    }
    for (const attribute of changed) this.attributeAt.set(attribute, version);
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

/** The first path segments of the attributes `after` changed, added or removed, compared with `before`. */
export function changedTopLevels(before: IndexRecord, after: IndexRecord): Set<string> {
  const changed = new Set<string>();
  for (const key in before) if (!Object.hasOwn(after, key) || !sameJson(before[key], after[key])) changed.add(topLevel(key));
  for (const key in after) if (!Object.hasOwn(before, key)) changed.add(topLevel(key));
  return changed;
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
