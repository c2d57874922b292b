/**
 * A hierarchical navigable small-world graph (HNSW, Malkov & Yashunin) over a vector column's slots: its nodes are
 * the column's slots and its distances the column's 8-bit codes (`vector-column.ts`), so the graph adds links
 * only, never a copy of the vectors. Searched by `approximate-index.ts`, which re-scores what it finds.
 *
 * Layout, per slot: a level byte (level + 1; 0: no node), and on layer 0 a row of `1 + 2m` words (count, then
 * neighbours' slots) in one flat array (132 bytes at m = 16). The few nodes above layer 0 (1 in m) keep their
 * upper rows (`1 + m` words per layer) in a map.
 *
 * Changes: a new vector is inserted where its slot is (a node whose slot the column reused is detached and
 * inserted again: other nodes' links to it stay, which costs a little quality, never correctness). A deleted
 * vector's node stays as it was, a route through the graph that searches never return (its codes stay in the
 * column until its slot is reused). Snapshots and compactions keep live nodes only, renumbered as the column
 * renumbers its slots (`renumbered`, `save`); a link to a dropped node is replaced by that node's own links.
 */
import { GrowableUint32 } from '../structures/growable.ts';
import type { SnapshotReader, SnapshotWriter } from '../snapshot/format.ts';
import { createEngineError } from '../errors.ts';
import { NodeHeap } from './node-heap.ts';
import type { VectorColumn } from './vector-column.ts';

export interface GraphShape {
  /** Links per node on upper layers (twice that on layer 0). */
  m: number;
  /** Candidates kept while inserting (quality of the graph against the time to build it). */
  efConstruction: number;
}

export const DEFAULT_SHAPE: GraphShape = { m: 16, efConstruction: 100 };
const MAX_LEVEL = 15;

/** The nodes a layer search found, best first, with their estimated cosines. */
export interface Found {
  slots: Int32Array;
  sims: Float64Array;
  count: number;
}

export class HnswGraph {
  readonly m: number;
  readonly m0: number;
  readonly efConstruction: number;
  private readonly stride0: number;
  private readonly strideUp: number;
  private readonly mL: number;
  /** Level + 1 by slot (0: not a node). */
  private levels = new Uint8Array(0);
  /** Layer-0 rows by slot. */
  private links0: GrowableUint32;
  /** Whether `links0` is this graph's to write (a snapshot's bytes read in place are not). */
  private ownsLinks = true;
  private readonly upper = new Map<number, Uint32Array>();
  private entry = -1;
  private maxLevel = 0;
  private visited = new Uint8Array(0);
  private epoch = 0;
  private seed = 0x9e3779b9;
  private readonly candidates = new NodeHeap(64);
  private readonly results = new NodeHeap(64);
  /** The neighbours `selectNeighbours` chose, and their estimated cosines to the node inserted. */
  private readonly chosen: Uint32Array;
  private readonly chosenSims: Float64Array;
  /** A full row's links and the new one, their cosines to the row's node and their order (`link`). */
  private readonly pruneSlots: Uint32Array;
  private readonly pruneSims: Float64Array;
  private readonly pruneOrder: Uint32Array;
  /** The prepared query's numbers times this are the unit query's (`VectorColumn.prepareQuery`). */
  private queryFactor = 0;
  /** Nodes (live or not) in the graph. */
  nodes = 0;

  constructor(
    private readonly column: VectorColumn,
    shape: GraphShape = DEFAULT_SHAPE,
  ) {
    this.m = shape.m;
    this.m0 = 2 * shape.m;
    this.efConstruction = shape.efConstruction;
    this.stride0 = this.m0 + 1;
    this.strideUp = this.m + 1;
    this.mL = 1 / Math.log(shape.m);
    this.links0 = new GrowableUint32(64 * this.stride0);
    this.chosen = new Uint32Array(shape.m);
    this.chosenSims = new Float64Array(shape.m);
    this.pruneSlots = new Uint32Array(2 * shape.m + 1);
    this.pruneSims = new Float64Array(2 * shape.m + 1);
    this.pruneOrder = new Uint32Array(2 * shape.m + 1);
  }

  /** Bytes the graph holds per node (layer-0 row, level and visit marks, upper rows on average). */
  bytesPerNode(): number {
    let upperWords = 0;
    for (const row of this.upper.values()) upperWords += row.length;
    return this.stride0 * 4 + 2 + (this.nodes === 0 ? 0 : (upperWords * 4) / this.nodes);
  }

  /** Adds the vector just stored at `slot` (detaching the node the slot held before, if any). */
  insert(slot: number, vector: Float32Array): void {
    this.ensure(slot + 1);
    if (!this.ownsLinks) this.adoptLinks();
    // A reused slot's layer-0 links are kept after its new ones: they may be the only way to the nodes they reach.
    const kept = this.levels[slot] !== 0 ? this.detach(slot) : null;
    const level = this.randomLevel();
    this.levels[slot] = level + 1;
    this.links0.data[slot * this.stride0] = 0;
    if (level > 0) this.upper.set(slot, new Uint32Array(level * this.strideUp));
    this.nodes++;
    if (this.entry < 0) {
      this.entry = slot;
      this.maxLevel = level;
      return;
    }
    this.queryFactor = this.column.prepareQuery(unit(vector)).factor;
    let ep = this.entry;
    let epSim = this.simQuery(ep);
    for (let layer = this.maxLevel; layer > level; layer--) ({ ep, epSim } = this.greedy(ep, epSim, layer));
    const live = (s: number) => this.column.docAtSlot(s) >= 0;
    for (let layer = Math.min(level, this.maxLevel); layer >= 0; layer--) {
      const found = this.searchLayer(ep, epSim, this.efConstruction, layer, live, slot);
      const count = this.selectNeighbours(found, this.m);
      const { chosen, chosenSims } = this;
      const row = this.row(slot, layer);
      row.array[row.at] = count;
      for (let i = 0; i < count; i++) row.array[row.at + 1 + i] = chosen[i];
      for (let i = 0; i < count; i++) this.link(chosen[i], slot, layer, chosenSims[i]);
      if (layer === 0 && kept !== null) {
        for (const other of kept) if (other !== slot && !chosen.subarray(0, count).includes(other) && row.array[row.at] < row.capacity) row.array[row.at + 1 + row.array[row.at]++] = other;
      }
      if (found.count > 0) {
        ep = found.slots[0];
        epSim = found.sims[0];
      }
    }
    if (level > this.maxLevel) {
      this.maxLevel = level;
      this.entry = slot;
    }
  }

  /**
   * The `ef` best nodes for `query` (a unit vector) that `accept` takes, best first: a greedy descent of the
   * upper layers, then a best-first search of layer 0 that walks through nodes `accept` refuses (deleted or
   * filtered out) without keeping them.
   */
  search(query: Float64Array, ef: number, accept: (slot: number) => boolean): Found & { queryError: number } {
    if (this.entry < 0) return { slots: new Int32Array(0), sims: new Float64Array(0), count: 0, queryError: 0 };
    const { factor, error } = this.column.prepareQuery(query);
    this.queryFactor = factor;
    let ep = this.entry;
    let epSim = this.simQuery(ep);
    for (let layer = this.maxLevel; layer > 0; layer--) ({ ep, epSim } = this.greedy(ep, epSim, layer));
    // The query's rounding to 16 bits (`prepareQuery`): with a vector's bound, how far its estimate may be off.
    return { ...this.searchLayer(ep, epSim, ef, 0, accept, -1), queryError: error };
  }

  /** Estimated cosine of the prepared query and a slot's vector, from its codes. */
  private simQuery(slot: number): number {
    const column = this.column;
    const d = column.dimensions;
    const chunk = column.chunkOf(slot);
    const local = slot - chunk.start;
    return column.arena.dot16(column.queryAt, chunk.codesAt + local * d, d) * chunk.factor[local] * this.queryFactor;
  }

  /** Estimated cosine of two slots' vectors, from their codes. */
  private simNodes(a: number, b: number): number {
    const column = this.column;
    const d = column.dimensions;
    const ca = column.chunkOf(a);
    const cb = column.chunkOf(b);
    const la = a - ca.start;
    const lb = b - cb.start;
    return column.arena.dot8(ca.codesAt + la * d, cb.codesAt + lb * d, d) * ca.factor[la] * cb.factor[lb];
  }

  /** Where a node's row of a layer is (count, then links). */
  private row(slot: number, layer: number): { array: Uint32Array; at: number; capacity: number } {
    if (layer === 0) return { array: this.links0.data, at: slot * this.stride0, capacity: this.m0 };
    return { array: this.upper.get(slot)!, at: (layer - 1) * this.strideUp, capacity: this.m };
  }

  private greedy(ep: number, epSim: number, layer: number): { ep: number; epSim: number } {
    for (let moved = true; moved; ) {
      moved = false;
      if (this.levels[ep] <= layer) break;
      const { array, at } = this.row(ep, layer);
      const count = array[at];
      for (let i = 1; i <= count; i++) {
        const next = array[at + i];
        // A link to a node inserted again at a lower level is stale on this layer.
        if (this.levels[next] <= layer) continue;
        const sim = this.simQuery(next);
        if (sim > epSim) {
          ep = next;
          epSim = sim;
          moved = true;
        }
      }
    }
    return { ep, epSim };
  }

  private searchLayer(ep: number, epSim: number, ef: number, layer: number, accept: (slot: number) => boolean, exclude: number): Found {
    const visited = this.visited;
    const mark = this.nextEpoch();
    if (exclude >= 0) visited[exclude] = mark;
    visited[ep] = mark;
    const candidates = this.candidates.reset();
    const results = this.results.reset();
    candidates.push(ep, epSim);
    if (accept(ep)) results.push(ep, -epSim);
    const levels = this.levels;
    while (candidates.size > 0) {
      const sim = candidates.topKey;
      if (results.size >= ef && sim < -results.topKey) break;
      const current = candidates.pop();
      if (levels[current] <= layer) continue;
      const array = layer === 0 ? this.links0.data : this.upper.get(current)!;
      const at = layer === 0 ? current * this.stride0 : (layer - 1) * this.strideUp;
      const count = array[at];
      for (let i = 1; i <= count; i++) {
        const next = array[at + i];
        if (visited[next] === mark) continue;
        visited[next] = mark;
        if (levels[next] <= layer) continue;
        const nextSim = this.simQuery(next);
        if (results.size < ef || nextSim > -results.topKey) {
          candidates.push(next, nextSim);
          if (accept(next)) {
            results.push(next, -nextSim);
            if (results.size > ef) results.pop();
          }
        }
      }
    }
    const count = results.size;
    const slots = new Int32Array(count);
    const sims = new Float64Array(count);
    for (let i = count - 1; i >= 0; i--) {
      sims[i] = -results.topKey;
      slots[i] = results.pop();
    }
    return { slots, sims, count };
  }

  /**
   * HNSW's heuristic: a candidate is linked unless a neighbour already chosen is nearer to it than the new node
   * is (links then spread in every direction, which keeps clusters reachable from each other).
   */
  private selectNeighbours(found: Found, m: number): number {
    const { chosen, chosenSims } = this;
    let count = 0;
    for (let i = 0; i < found.count && count < m; i++) {
      const slot = found.slots[i];
      const sim = found.sims[i];
      let keep = true;
      for (let j = 0; j < count && keep; j++) keep = this.simNodes(slot, chosen[j]) <= sim;
      if (keep) {
        chosen[count] = slot;
        chosenSims[count++] = sim;
      }
    }
    return count;
  }

  /** Links `from` to `to` on a layer; a full row drops its farthest link if `to` is nearer. */
  private link(from: number, to: number, layer: number, sim: number): void {
    const { array, at, capacity } = this.row(from, layer);
    const count = array[at];
    for (let i = 1; i <= count; i++) if (array[at + i] === to) return;
    if (count < capacity) {
      array[at + 1 + count] = to;
      array[at] = count + 1;
      return;
    }
    // A full row chooses again among its links and the new one with the same heuristic (as hnswlib does):
    // dropping the farthest alone keeps links bunched in one direction, and recall fell on dense clusters.
    const slots = this.pruneSlots;
    const sims = this.pruneSims;
    slots[0] = to;
    sims[0] = sim;
    for (let i = 1; i <= count; i++) {
      slots[i] = array[at + i];
      sims[i] = this.simNodes(from, slots[i]);
    }
    const order = this.pruneOrder;
    for (let i = 0; i <= count; i++) order[i] = i;
    order.subarray(0, count + 1).sort((a, b) => sims[b] - sims[a]);
    let kept = 0;
    for (let i = 0; i <= count && kept < capacity; i++) {
      const candidate = slots[order[i]];
      let keep = true;
      for (let j = 0; j < kept && keep; j++) keep = this.simNodes(candidate, array[at + 1 + j]) <= sims[order[i]];
      if (keep) array[at + 1 + kept++] = candidate;
    }
    array[at] = kept;
  }

  /**
   * Takes a node out before its slot is inserted again (the entry moves to another node if it was this one);
   * returns its layer-0 links.
   */
  private detach(slot: number): Uint32Array {
    const at = slot * this.stride0;
    const links = this.links0.data.slice(at + 1, at + 1 + this.links0.data[at]);
    const fallback = links.length > 0 ? links[0] : -1;
    this.levels[slot] = 0;
    this.upper.delete(slot);
    this.links0.data[slot * this.stride0] = 0;
    this.nodes--;
    if (this.entry !== slot) return links;
    this.entry = -1;
    this.maxLevel = 0;
    for (const other of this.upper.keys()) {
      if (this.entry < 0 || this.levels[other] - 1 > this.maxLevel) {
        this.entry = other;
        this.maxLevel = this.levels[other] - 1;
      }
    }
    if (this.entry < 0 && fallback >= 0 && this.levels[fallback] !== 0) this.entry = fallback;
    if (this.entry < 0 && this.nodes > 0) {
      for (let s = 0; s < this.levels.length; s++) if (this.levels[s] !== 0) this.entry = s;
    }
    return links;
  }

  private randomLevel(): number {
    // xorshift32: deterministic, so a graph built from the same writes is the same graph.
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x >>> 0;
    const u = (this.seed + 1) / 4294967297;
    return Math.min(MAX_LEVEL, Math.floor(-Math.log(u) * this.mL));
  }

  private nextEpoch(): number {
    if (++this.epoch > 255) {
      this.visited.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  private ensure(slots: number): void {
    if (this.levels.length < slots) {
      const size = Math.max(slots, Math.ceil(this.levels.length * 1.25), 64);
      const levels = new Uint8Array(size);
      levels.set(this.levels);
      this.levels = levels;
      this.visited = new Uint8Array(size);
      this.epoch = 0;
    }
    const words = slots * this.stride0;
    if (this.links0.length < words) {
      if (!this.ownsLinks) this.adoptLinks();
      this.links0.reserve(words);
      this.links0.data.fill(0, this.links0.length, words);
      this.links0.length = words;
    }
  }

  private adoptLinks(): void {
    this.links0 = GrowableUint32.withRoom(this.links0.data.subarray(0, this.links0.length));
    this.ownsLinks = true;
  }

  /**
   * The links of a node's layer with every link to a dropped node replaced by that node's own links (a route
   * kept), renumbered by `newSlot` (-1: dropped); at most the row's capacity, no duplicates, no self-link.
   */
  private mappedRow(slot: number, layer: number, newSlot: Int32Array, out: Uint32Array, outAt: number): void {
    const { array, at, capacity } = this.row(slot, layer);
    const count = array[at];
    out.fill(0, outAt, outAt + 1 + capacity);
    let n = 0;
    const add = (target: number): void => {
      const mapped = newSlot[target];
      if (n >= capacity || mapped < 0 || target === slot || this.levels[target] <= layer) return;
      for (let i = 0; i < n; i++) if (out[outAt + 1 + i] === mapped) return;
      out[outAt + 1 + n++] = mapped;
    };
    for (let i = 1; i <= count; i++) if (newSlot[array[at + i]] >= 0) add(array[at + i]);
    for (let i = 1; i <= count && n < capacity; i++) {
      const dropped = array[at + i];
      if (newSlot[dropped] >= 0 || this.levels[dropped] <= layer) continue;
      const via = this.row(dropped, layer);
      for (let j = 1; j <= via.array[via.at]; j++) add(via.array[via.at + j]);
    }
    out[outAt] = n;
  }

  /** The entry of a graph keeping the nodes `newSlot` maps: this one if kept, else the highest kept node. */
  private mappedEntry(newSlot: Int32Array): { entry: number; maxLevel: number } {
    if (this.entry >= 0 && newSlot[this.entry] >= 0) return { entry: newSlot[this.entry], maxLevel: this.maxLevel };
    let entry = -1;
    let maxLevel = 0;
    for (let s = 0; s < this.levels.length; s++) {
      const level = this.levels[s] - 1;
      if (level >= 0 && newSlot[s] >= 0 && (entry < 0 || level > maxLevel)) {
        entry = newSlot[s];
        maxLevel = level;
      }
    }
    return { entry, maxLevel };
  }

  /** The graph over `column` keeping the nodes `newSlot` maps (by old slot; -1: dropped), renumbered. */
  renumbered(column: VectorColumn, newSlot: Int32Array): HnswGraph {
    const next = new HnswGraph(column, { m: this.m, efConstruction: this.efConstruction });
    let slots = 0;
    for (let s = 0; s < this.levels.length; s++) if (this.levels[s] !== 0 && newSlot[s] >= 0) slots = Math.max(slots, newSlot[s] + 1);
    next.ensure(slots);
    for (let s = 0; s < this.levels.length; s++) {
      const to = newSlot[s];
      if (this.levels[s] === 0 || to < 0) continue;
      next.levels[to] = this.levels[s];
      next.nodes++;
      this.mappedRow(s, 0, newSlot, next.links0.data, to * this.stride0);
      const level = this.levels[s] - 1;
      if (level === 0) continue;
      const up = new Uint32Array(level * this.strideUp);
      for (let layer = 1; layer <= level; layer++) this.mappedRow(s, layer, newSlot, up, (layer - 1) * this.strideUp);
      next.upper.set(to, up);
    }
    ({ entry: next.entry, maxLevel: next.maxLevel } = this.mappedEntry(newSlot));
    return next;
  }

  /**
   * Sections `<prefix>.meta` (JSON), `<prefix>.links0` (layer-0 rows by new slot; read apart with room, since
   * writes after a restore extend it) and `<prefix>.upper` (per upper node: slot, level, then its rows), the
   * nodes renumbered by `newSlot` into `slots` slots (the column's save keeps live slots, in order).
   */
  save(w: SnapshotWriter, prefix: string, newSlot: Int32Array, slots: number): void {
    const { entry, maxLevel } = this.mappedEntry(newSlot);
    w.json(`${prefix}.meta`, { m: this.m, efConstruction: this.efConstruction, entry, maxLevel, slots });
    const upper: number[] = [];
    const row = new Uint32Array(this.strideUp);
    for (const s of this.upper.keys()) {
      if (newSlot[s] < 0 || this.levels[s] === 0) continue;
      const level = this.levels[s] - 1;
      upper.push(newSlot[s], level);
      for (let layer = 1; layer <= level; layer++) {
        this.mappedRow(s, layer, newSlot, row, 0);
        for (const word of row) upper.push(word);
      }
    }
    w.u32(`${prefix}.upper`, Uint32Array.from(upper));
    w.u32Pieces(`${prefix}.links0`, slots * this.stride0 * 4, () => this.rows0(newSlot, slots), { grows: true });
  }

  /** The layer-0 rows of the kept nodes in their new order, in batches. */
  private *rows0(newSlot: Int32Array, slots: number): Generator<Uint8Array, void, void> {
    const stride = this.stride0;
    const batch = 1024;
    // Pieces are copied as soon as they are yielded (`SnapshotWriter`): one buffer serves every batch.
    const out = new Uint32Array(batch * stride);
    let n = 0;
    let written = 0;
    for (let s = 0; s < this.levels.length && written < slots; s++) {
      if (this.levels[s] === 0 || newSlot[s] < 0) continue;
      if (newSlot[s] !== written) throw new Error(`graph slot ${s} saved out of order`);
      this.mappedRow(s, 0, newSlot, out, n * stride);
      n++;
      written++;
      if (n === batch) {
        yield new Uint8Array(out.buffer, 0, n * stride * 4);
        n = 0;
      }
    }
    if (n > 0) yield new Uint8Array(out.buffer, 0, n * stride * 4);
    if (written !== slots) throw new Error(`graph: ${written} nodes saved for ${slots} vectors`);
  }

  /** A graph of every live vector of `column`, inserted in slot order. */
  static build(column: VectorColumn, shape: GraphShape = DEFAULT_SHAPE): HnswGraph {
    const graph = new HnswGraph(column, shape);
    for (let slot = 0; slot < column.slots; slot++) {
      const doc = column.docAtSlot(slot);
      if (doc >= 0) graph.insert(slot, column.get(doc)!);
    }
    return graph;
  }

  /** A graph restored from `save`'s sections, over the column restored beside it. */
  static load(r: SnapshotReader, prefix: string, column: VectorColumn): HnswGraph {
    const meta = r.json<{ m?: unknown; efConstruction?: unknown; entry?: unknown; maxLevel?: unknown; slots?: unknown }>(`${prefix}.meta`);
    const { m, efConstruction, entry, maxLevel, slots } = meta ?? {};
    if (![m, efConstruction, entry, maxLevel, slots].every(Number.isInteger) || (m as number) < 2) throw createEngineError('INVALID_SNAPSHOT', `${prefix}: graph metadata`);
    const graph = new HnswGraph(column, { m: m as number, efConstruction: efConstruction as number });
    const n = slots as number;
    const links0 = r.growableU32(`${prefix}.links0`);
    if (links0.length !== n * graph.stride0) throw createEngineError('INVALID_SNAPSHOT', `section ${prefix}.links0 has the wrong length`);
    graph.links0 = links0;
    // Read apart (`snapshotLayout`), the section is a buffer of its own with room past its length (`roomToGrow`),
    // written in place; else a view of the snapshot's bytes, which other indexes may read: copied on first write.
    graph.ownsLinks = links0.data.length > links0.length;
    graph.levels = new Uint8Array(Math.max(64, Math.ceil(n * 1.25)));
    graph.levels.fill(1, 0, n);
    graph.visited = new Uint8Array(graph.levels.length);
    graph.nodes = n;
    const upper = r.u32(`${prefix}.upper`);
    for (let at = 0; at < upper.length; ) {
      const slot = upper[at];
      const level = upper[at + 1];
      const words = level * graph.strideUp;
      if (slot >= n || level < 1 || level > MAX_LEVEL || at + 2 + words > upper.length) throw createEngineError('INVALID_SNAPSHOT', `section ${prefix}.upper`);
      graph.levels[slot] = level + 1;
      graph.upper.set(slot, upper.slice(at + 2, at + 2 + words));
      at += 2 + words;
    }
    for (let i = 0; i < n; i++) {
      const at = i * graph.stride0;
      if (links0.data[at] > graph.m0) throw createEngineError('INVALID_SNAPSHOT', `section ${prefix}.links0`);
      for (let j = 1; j <= links0.data[at]; j++) if (links0.data[at + j] >= n) throw createEngineError('INVALID_SNAPSHOT', `section ${prefix}.links0`);
    }
    graph.entry = n === 0 ? -1 : (entry as number);
    graph.maxLevel = maxLevel as number;
    if (graph.entry >= n || (graph.entry >= 0 && graph.levels[graph.entry] - 1 !== graph.maxLevel)) throw createEngineError('INVALID_SNAPSHOT', `${prefix}: graph entry`);
    return graph;
  }
}

/** `vector` scaled to length 1, in float64 (a query's cosine estimates are then its dot products). */
export function unit(vector: ArrayLike<number>): Float64Array {
  const out = Float64Array.from(vector as ArrayLike<number>);
  let norm2 = 0;
  for (let i = 0; i < out.length; i++) norm2 += out[i] * out[i];
  const scale = norm2 > 0 ? 1 / Math.sqrt(norm2) : 0;
  for (let i = 0; i < out.length; i++) out[i] *= scale;
  return out;
}
