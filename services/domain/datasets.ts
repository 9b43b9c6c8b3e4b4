/**
 * The one dataset table. Each searchable dataset is one row; every other spelling
 * of a dataset (index alias, control-plane name, public route, the datasets a file
 * can be ingested into) is derived from it, so a new dataset is one new row.
 *
 * - name:    the index-side name; the alias is `${prefix}-${name}` over one versioned physical index
 * - control: how the control plane (SQLite: ingest_runs, dataset_state) spells it
 * - route:   the public API path segment (/api/v1/<route>)
 * - files:   whether files are ingested into it; sales are derived from certificates
 */
const TABLE = [
  { name: 'certificates', control: 'certificates', route: 'certificates', files: true },
  { name: 'sales', control: 'sales', route: 'certificate-sales', files: false },
  { name: 'holders', control: 'holders', route: 'holders', files: true },
  { name: 'lands-available', control: 'lands_available', route: 'lands-available', files: true },
  { name: 'parcels', control: 'parcels', route: 'parcels', files: true },
] as const;

type Row = (typeof TABLE)[number];

/** The searchable datasets by their index-side name. */
export type Dataset = Row['name'];
/** The control plane's spelling of a dataset. */
export type ControlDataset = Row['control'];
/** The public route segment of a dataset. */
export type DatasetRoute = Row['route'];
/** Datasets that files are ingested into (the ingest queue's jobs name one of these). */
export type FileDataset = Extract<Row, { files: true }>['name'];

type Tuple<T> = readonly [T, ...T[]];

export const DATASETS = TABLE.map((r) => r.name) as unknown as Tuple<Dataset>;
export const CONTROL_DATASETS = TABLE.map((r) => r.control) as unknown as Tuple<ControlDataset>;
export const FILE_DATASETS = TABLE.filter((r) => r.files).map((r) => r.name) as unknown as Tuple<FileDataset>;

const byName = new Map<Dataset, Row>(TABLE.map((r) => [r.name, r]));
const byControl = new Map<ControlDataset, Row>(TABLE.map((r) => [r.control, r]));

function row(dataset: Dataset): Row {
  // Unreachable for a typed caller; a clear error beats undefined for an untyped one.
  const r = byName.get(dataset);
  if (!r) throw new RangeError(`unknown dataset ${JSON.stringify(dataset)}`);
  return r;
}

/** The control plane's name of a dataset ('lands-available' -> 'lands_available'). */
export function controlName(dataset: Dataset): ControlDataset {
  return row(dataset).control;
}

/** The dataset a control-plane name stands for ('lands_available' -> 'lands-available'). */
export function datasetOfControl(control: ControlDataset): Dataset {
  const r = byControl.get(control);
  if (!r) throw new RangeError(`unknown control-plane dataset ${JSON.stringify(control)}`);
  return r.name;
}

/** The public route segment of a dataset ('sales' -> 'certificate-sales'). */
export function routeName(dataset: Dataset): DatasetRoute {
  return row(dataset).route;
}

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
