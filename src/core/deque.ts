/** A ring-buffer double-ended queue: O(1) push, shift and unshift without array re-indexing. */
export class Deque<T> {
  private buf: (T | undefined)[];
  private head = 0;
  private len = 0;

  constructor(capacity = 16) {
    this.buf = new Array(capacity);
  }

  get length(): number {
    return this.len;
  }

  push(item: T): void {
    if (this.len === this.buf.length) this.grow();
    this.buf[(this.head + this.len) & (this.buf.length - 1)] = item;
    this.len++;
  }

  unshift(item: T): void {
    if (this.len === this.buf.length) this.grow();
    this.head = (this.head - 1) & (this.buf.length - 1);
    this.buf[this.head] = item;
    this.len++;
  }

  shift(): T | undefined {
    if (this.len === 0) return undefined;
    const item = this.buf[this.head];
    this.buf[this.head] = undefined;
    this.head = (this.head + 1) & (this.buf.length - 1);
    this.len--;
    return item;
  }

  peek(): T | undefined {
    return this.len === 0 ? undefined : this.buf[this.head];
  }

  clear(): void {
    this.buf = new Array(16);
    this.head = 0;
    this.len = 0;
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.len; i++) yield this.buf[(this.head + i) & (this.buf.length - 1)] as T;
  }

  private grow(): void {
    const old = this.buf;
    const next = new Array<T | undefined>(old.length * 2);
    for (let i = 0; i < this.len; i++) next[i] = old[(this.head + i) & (old.length - 1)];
    this.buf = next;
    this.head = 0;
  }
}
