/** One rule of the data check over a generated set: how many records it applies to, how many break it. */
export interface Check {
  name: string;
  /** Records the check applies to. */
  of: number;
  /** Records that break it. */
  bad: number;
  /** Up to 3 examples of bad records. */
  examples: string[];
  note?: string;
}

/** Counts one check's records and keeps a few of the bad ones as examples. */
export class Tally {
  of = 0;
  bad = 0;
  examples: string[] = [];
  see(ok: boolean, example: () => string) {
    this.of++;
    if (!ok) {
      this.bad++;
      if (this.examples.length < 3) this.examples.push(example());
    }
  }
  check(name: string, note?: string): Check {
    return { name, of: this.of, bad: this.bad, examples: this.examples, ...(note ? { note } : {}) };
  }
}
