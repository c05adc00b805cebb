/**
 * A binary min-heap keyed by a number, with O(log n) removal of any entry: leases and delayed
 * redeliveries live here so one timer for the earliest key is all a subscription arms.
 */
export interface HeapEntry {
  key: number;
  heapIndex: number;
}

export class MinHeap<T extends HeapEntry> {
  private items: T[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    item.heapIndex = this.items.length;
    this.items.push(item);
    this.up(item.heapIndex);
  }

  pop(): T | undefined {
    const top = this.items[0];
    if (top) this.remove(top);
    return top;
  }

  remove(item: T): void {
    const i = item.heapIndex;
    if (i < 0 || this.items[i] !== item) return;
    const last = this.items.pop()!;
    item.heapIndex = -1;
    if (i < this.items.length) {
      this.items[i] = last;
      last.heapIndex = i;
      this.down(i);
      this.up(i);
    }
  }

  /** Re-positions an entry after its key changed. */
  update(item: T, key: number): void {
    item.key = key;
    if (item.heapIndex < 0) return this.push(item);
    this.down(item.heapIndex);
    this.up(item.heapIndex);
  }

  clear(): T[] {
    const all = this.items;
    for (const it of all) it.heapIndex = -1;
    this.items = [];
    return all;
  }

  private up(i: number): void {
    const items = this.items;
    const item = items[i];
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (items[p].key <= item.key) break;
      items[i] = items[p];
      items[i].heapIndex = i;
      i = p;
    }
    items[i] = item;
    item.heapIndex = i;
  }

  private down(i: number): void {
    const items = this.items;
    const n = items.length;
    const item = items[i];
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && items[r].key < items[l].key ? r : l;
      if (items[c].key >= item.key) break;
      items[i] = items[c];
      items[i].heapIndex = i;
      i = c;
    }
    items[i] = item;
    item.heapIndex = i;
  }
}
