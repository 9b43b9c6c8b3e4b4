import { createHash } from 'node:crypto';

/**
 * Remembers which document ids a file has already produced and on which line, to
 * catch a document listed twice in one file (the second would silently overwrite
 * the first) and to name the line of a document the engine later refuses. Ids are
 * hex digests, so 64 bits of them make a fingerprint; an open-addressing table of
 * typed arrays keeps a million-row file to ~24 MB instead of a Map of strings.
 */
export class SeenIds {
  private keys: Uint32Array;
  private lines: Uint32Array;
  private size = 0;

  constructor(capacity = 1 << 10) {
    this.keys = new Uint32Array(capacity * 2);
    this.lines = new Uint32Array(capacity);
  }

  /** Records the id; returns the line it was first seen on when it is a repeat, else undefined. */
  add(hexId: string, line: number): number | undefined {
    if ((this.size + 1) * 2 > this.lines.length) this.grow();
    const [hi, lo] = fingerprint(hexId);
    const slot = this.find(hi, lo);
    if (this.keys[slot * 2] !== 0) return this.lines[slot];
    this.keys[slot * 2] = hi;
    this.keys[slot * 2 + 1] = lo;
    this.lines[slot] = line;
    this.size++;
    return undefined;
  }

  /** The line the id was first seen on, or undefined when it never was. */
  lineOf(hexId: string): number | undefined {
    const [hi, lo] = fingerprint(hexId);
    const slot = this.find(hi, lo);
    return this.keys[slot * 2] === 0 ? undefined : this.lines[slot];
  }

  /** Forgets every id and gives the table's memory back. */
  clear(): void {
    this.keys = new Uint32Array(2);
    this.lines = new Uint32Array(1);
    this.size = 0;
  }

  get count(): number {
    return this.size;
  }

  /** The slot holding this fingerprint, or the empty slot where it would go. */
  private find(hi: number, lo: number): number {
    const mask = this.lines.length - 1;
    let slot = (hi ^ lo) & mask;
    for (;;) {
      const k = this.keys[slot * 2];
      if (k === 0 || (k === hi && this.keys[slot * 2 + 1] === lo)) return slot;
      slot = (slot + 1) & mask;
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldLines = this.lines;
    const capacity = oldLines.length * 2;
    this.keys = new Uint32Array(capacity * 2);
    this.lines = new Uint32Array(capacity);
    for (let i = 0; i < oldLines.length; i++) {
      const hi = oldKeys[i * 2]!;
      if (hi === 0) continue;
      const lo = oldKeys[i * 2 + 1]!;
      const slot = this.find(hi, lo);
      this.keys[slot * 2] = hi;
      this.keys[slot * 2 + 1] = lo;
      this.lines[slot] = oldLines[i]!;
    }
  }
}

const HEX_ID = /^[a-z]+_[0-9a-f]{16,}$/;

/**
 * The first 64 bits of the digest after the id's prefix; zero marks an empty slot, so an all-zero
 * high word is nudged to one. An id that is not a digest (a parcel's is `county:parcel`) is
 * digested first: its own characters would be no fingerprint.
 */
function fingerprint(id: string): [number, number] {
  const hex = HEX_ID.test(id) ? id.slice(id.indexOf('_') + 1) : createHash('sha256').update(id).digest('hex');
  return [Number.parseInt(hex.slice(0, 8), 16) >>> 0 || 1, Number.parseInt(hex.slice(8, 16), 16) >>> 0];
}
