/** The four searchable datasets; each is one alias over one versioned physical index. */
export const DATASETS = ['certificates', 'sales', 'holders', 'lands-available'] as const;
export type Dataset = (typeof DATASETS)[number];

/** What readers and writers address: stable across reindexes. */
export function aliasName(prefix: string, dataset: Dataset): string {
  return `${prefix}-${dataset}`;
}

/**
 * A physical index: mapping version plus a UTC timestamp to the millisecond and a
 * short random tail, so two builds of the same version never collide.
 */
export function physicalName(prefix: string, dataset: Dataset, mappingVersion: number, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:.]/g, '').replace('T', 't').replace('Z', 'z');
  const tail = Math.random().toString(36).slice(2, 6).padEnd(4, '0');
  return `${aliasName(prefix, dataset)}-v${mappingVersion}-${stamp}${tail}`;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Matches exactly the physical indices of this prefix. Prefixes may contain '-',
 * so "t" must not claim "t-x-sales-v1-…" of prefix "t-x": the dataset has to
 * follow the prefix directly.
 */
export function physicalPattern(prefix: string): RegExp {
  return new RegExp(`^${escapeRegExp(prefix)}-(${DATASETS.join('|')})-v(\\d+)-[0-9a-z]+$`);
}
