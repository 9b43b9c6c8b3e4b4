/**
 * A small seeded PRNG (mulberry32) of our own, so fixtures stay byte-identical
 * whatever library versions are installed. One instance is re-seeded per parcel
 * and per file instead of allocating new ones in the hot loop.
 */

/** 32-bit avalanche mix (murmur3 finalizer): turns neighbouring keys into unrelated seeds. */
export function mix32(h: number): number {
  let x = h | 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** Combines numeric parts into one 32-bit seed; order matters. */
export function seedOf(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) {
    h = mix32(h ^ (p | 0));
    h = mix32(h + Math.floor(p / 4294967296));
  }
  return h;
}

/** FNV-1a of a string, mixed: stable seeds from names such as county slugs. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  reseed(seed: number): this {
    this.state = seed | 0;
    return this;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Integer in [min, max] inclusive. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Favours the head of the list (power-law-ish): popular names and big holders come first. */
  pickSkewed<T>(items: readonly T[], power = 2): T {
    return items[Math.floor(this.next() ** power * items.length)] as T;
  }

  /** Standard normal (Box-Muller, one value per call). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Exponential with the given mean. */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
}
