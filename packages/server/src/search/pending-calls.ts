/**
 * The calls a search thread has not answered yet, by call id: the id is a slot in an array, freed when the
 * answer comes and reused by a later call.
 *
 * Why not a `Map<id, call>` set and deleted per request: the objects its calls reach (the waiting request, its
 * reply, the answer's text) are promoted to the old generation, nearly three times the old-generation garbage
 * the main thread makes with slots, whose calls' objects die young; and full collections of the main thread are
 * the commonest cause of the slowest seconds. A call id is only ever answered once, so reusing a freed slot's id
 * cannot mix answers up.
 */
export class PendingCalls<T> {
  private readonly slots: Array<T | undefined> = [];
  private readonly freeSlots: number[] = [];
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Holds a call; returns its id. */
  add(call: T): number {
    const id = this.freeSlots.pop() ?? this.slots.length;
    this.slots[id] = call;
    this.count++;
    return id;
  }

  /** The call of that id, left in place; undefined when there is none. */
  get(id: number): T | undefined {
    return Number.isInteger(id) && id >= 0 && id < this.slots.length ? this.slots[id] : undefined;
  }

  /** The call of that id, removed; undefined when there is none (already answered, or never sent). */
  take(id: number): T | undefined {
    if (!Number.isInteger(id) || id < 0 || id >= this.slots.length) return undefined;
    const call = this.slots[id];
    if (call === undefined) return undefined;
    this.slots[id] = undefined;
    this.freeSlots.push(id);
    this.count--;
    return call;
  }

  /** Removes and returns every call held (a thread that died or stopped). */
  takeAll(): T[] {
    const calls: T[] = [];
    for (let id = 0; id < this.slots.length; id++) {
      const call = this.take(id);
      if (call !== undefined) calls.push(call);
    }
    return calls;
  }
}
