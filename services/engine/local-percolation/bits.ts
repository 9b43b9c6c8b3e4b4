/**
 * A set of document positions (0..n-1) of one batch as a bitset: the evaluation of a saved search
 * over thousands of documents is a handful of word operations per clause, not a loop per document.
 */
export type Bits = Uint32Array;

export function emptyBits(n: number): Bits {
  return new Uint32Array((n + 31) >>> 5);
}

export function allBits(n: number): Bits {
  const out = emptyBits(n);
  out.fill(0xffffffff);
  const tail = n & 31;
  if (tail !== 0) out[out.length - 1] = (1 << tail) - 1;
  return out;
}

export function setBit(bits: Bits, i: number): void {
  bits[i >>> 5]! |= 1 << (i & 31);
}

export function hasBit(bits: Bits, i: number): boolean {
  return (bits[i >>> 5]! & (1 << (i & 31))) !== 0;
}

export function or(a: Bits, b: Bits): Bits {
  const out = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! | b[i]!;
  return out;
}

export function isEmpty(bits: Bits): boolean {
  for (let i = 0; i < bits.length; i++) if (bits[i] !== 0) return false;
  return true;
}

/** The set bits of one word. */
export function ones(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

export function count(bits: Bits): number {
  let n = 0;
  for (let i = 0; i < bits.length; i++) n += ones(bits[i]!);
  return n;
}

/** How many positions are in both `a` and `b`, `a` laid over `b` from b's word `offset` (no set made). */
export function countBoth(a: Bits, b: Bits, offset = 0): number {
  let n = 0;
  for (let i = 0; i < a.length; i++) n += ones(a[i]! & b[offset + i]!);
  return n;
}

/** The positions in the set, ascending. */
export function positions(bits: Bits): number[] {
  const out: number[] = [];
  for (let w = 0; w < bits.length; w++) {
    let v = bits[w]!;
    while (v !== 0) {
      const low = v & -v;
      out.push((w << 5) + 31 - Math.clz32(low));
      v ^= low;
    }
  }
  return out;
}
