/**
 * What one worker knows of its own rollup commits, per county and tax year: how many it made,
 * and which are written but not yet refreshed. A load measures its rollups' difference against
 * what it read between the passes; if another file of the same county and year committed since,
 * or had committed without a refresh when the load looked (search would not have shown it),
 * that difference is not against what is written, and the load rebuilds instead.
 */
export interface LedgerMark {
  key: string;
  commits: number;
  unrefreshed: boolean;
}

export class RollupLedger {
  private readonly commits = new Map<string, number>();
  private readonly unrefreshed = new Set<string>();

  static key(countySlug: string, taxYear: number): string {
    return `${countySlug}|${taxYear}`;
  }

  mark(countySlug: string, taxYear: number): LedgerMark {
    const key = RollupLedger.key(countySlug, taxYear);
    return { key, commits: this.commits.get(key) ?? 0, unrefreshed: this.unrefreshed.has(key) };
  }

  /** Whether the county and year's rollups moved (or were unseen) since the mark. */
  changedSince(mark: LedgerMark): boolean {
    return mark.unrefreshed || (this.commits.get(mark.key) ?? 0) !== mark.commits;
  }

  committed(countySlug: string, taxYear: number): void {
    const key = RollupLedger.key(countySlug, taxYear);
    this.commits.set(key, (this.commits.get(key) ?? 0) + 1);
    this.unrefreshed.add(key);
  }

  /** A refresh of the certificates index ran: everything committed before it is visible. */
  refreshed(): void {
    this.unrefreshed.clear();
  }
}
