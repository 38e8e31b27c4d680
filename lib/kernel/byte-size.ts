/**
 * What a value holds in bytes, roughly: its strings' lengths (UTF-16 units, as JSON would mostly write them) and a few
 * bytes for every other value. Buffers that hold events by count use it to hold them by bytes too: 256 events are a
 * few hundred KB, or 4 GiB when each carries a 16 MiB span. Pure; walks the value once, without recursion.
 */
export function approximateBytes(value: unknown): number {
  let bytes = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') bytes += item.length + 2;
    else if (item === null || typeof item !== 'object') bytes += 8;
    else if (Array.isArray(item)) {
      bytes += 2;
      for (const element of item) stack.push(element);
    } else {
      for (const [key, element] of Object.entries(item)) {
        bytes += key.length + 4;
        stack.push(element);
      }
    }
  }
  return bytes;
}

/**
 * The bytes of the items a Readable still holds: told each item pushed and how many it holds now, it forgets those the
 * reader took (always the oldest).
 */
export class BufferedBytes {
  private readonly sizes: number[] = [];
  private head = 0;
  bytes = 0;

  /** After a push: `size` of the item just pushed, `held` the Readable's length now (the item included if buffered). */
  pushed(size: number, held: number): void {
    this.sizes.push(size);
    this.bytes += size;
    this.heldNow(held);
  }

  /** The Readable holds `held` items: the ones before them have been read. */
  heldNow(held: number): void {
    while (this.sizes.length - this.head > held) this.bytes -= this.sizes[this.head++]!;
    if (this.head > 1024) {
      this.sizes.splice(0, this.head);
      this.head = 0;
    }
  }
}
