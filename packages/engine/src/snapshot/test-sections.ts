/**
 * Tests' view of a snapshot's sections: their names and kinds, and a copy of one into another writer (to write
 * snapshots as an earlier format did, leaving sections out or writing them otherwise).
 */
import type { SnapshotReader, SnapshotWriter } from './format.ts';

export const sectionsOf = (reader: SnapshotReader) => (reader as unknown as { sections: Map<string, { kind: 'json' | 'u32' | 'f64' }> }).sections;

/** Copies section `name` from `reader` to `writer` as it is. */
export function copySection(reader: SnapshotReader, writer: SnapshotWriter, name: string): void {
  const kind = sectionsOf(reader).get(name)!.kind;
  if (kind === 'json') writer.json(name, reader.json(name));
  else if (kind === 'u32') writer.u32(name, reader.u32(name));
  else writer.f64(name, reader.f64(name));
}
