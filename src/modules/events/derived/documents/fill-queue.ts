/**
 * The events waiting for their documents, in the order they were asked for, each once. Bounded: after a
 * change that empties many documents, reads under load ask faster than fills run, and an event left out
 * is asked for again by its next read.
 */
export class FillQueue {
  private readonly ids = new Set<number>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.ids.size;
  }

  add(id: number): void {
    if (this.ids.size < this.capacity) this.ids.add(id);
  }

  /** Removes and returns the `count` oldest, without copying the rest. */
  take(count: number): number[] {
    const taken: number[] = [];
    for (const id of this.ids) {
      if (taken.length === count) break;
      taken.push(id);
    }
    for (const id of taken) this.ids.delete(id);
    return taken;
  }
}
