/**
 * Remembers which certificate ids a file has already produced, to catch a
 * certificate listed twice in one file (the second would silently overwrite the
 * first). Ids are hex digests, so 64 bits of them make a fingerprint; an
 * open-addressing table of typed arrays keeps a million-row file to ~24 MB
 * instead of a Set of a million strings.
 */
export class SeenIds {
  private keys: Uint32Array;
  private lines: Uint32Array;
  private size = 0;

  constructor(capacity = 1 << 16) {
    this.keys = new Uint32Array(capacity * 2);
    this.lines = new Uint32Array(capacity);
  }

  /** Records the id; returns the line it was first seen on when it is a repeat, else undefined. */
  add(hexId: string, line: number): number | undefined {
    const hex = hexId.slice(hexId.indexOf('_') + 1);
    // Zero marks an empty slot, so a (vanishingly rare) all-zero fingerprint is nudged to one.
    const hi = Number.parseInt(hex.slice(0, 8), 16) >>> 0 || 1;
    const lo = Number.parseInt(hex.slice(8, 16), 16) >>> 0;
    if ((this.size + 1) * 2 > this.lines.length) this.grow();
    const mask = this.lines.length - 1;
    let slot = (hi ^ lo) & mask;
    for (;;) {
      const k = this.keys[slot * 2];
      if (k === 0) {
        this.keys[slot * 2] = hi;
        this.keys[slot * 2 + 1] = lo;
        this.lines[slot] = line;
        this.size++;
        return undefined;
      }
      if (k === hi && this.keys[slot * 2 + 1] === lo) return this.lines[slot];
      slot = (slot + 1) & mask;
    }
  }

  get count(): number {
    return this.size;
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldLines = this.lines;
    const capacity = oldLines.length * 2;
    this.keys = new Uint32Array(capacity * 2);
    this.lines = new Uint32Array(capacity);
    const mask = capacity - 1;
    for (let i = 0; i < oldLines.length; i++) {
      const hi = oldKeys[i * 2]!;
      if (hi === 0) continue;
      const lo = oldKeys[i * 2 + 1]!;
      let slot = (hi ^ lo) & mask;
      while (this.keys[slot * 2] !== 0) slot = (slot + 1) & mask;
      this.keys[slot * 2] = hi;
      this.keys[slot * 2 + 1] = lo;
      this.lines[slot] = oldLines[i]!;
    }
  }
}
