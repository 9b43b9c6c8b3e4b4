import { buildHoldersSnapshot } from '../holders/bulk-snapshot.ts';
import { buildLandsSnapshots } from '../lands-available/bulk-snapshots.ts';

/** The snapshot builders that read through a route's own query and mapper, for the worker's rebuilds. */
export const ROUTE_SNAPSHOTS = { holders: buildHoldersSnapshot, lands: buildLandsSnapshots };
