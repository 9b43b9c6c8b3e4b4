import type { RegistryCounty } from '../domain/registry.ts';

/** What a portal file is for: the county and tax year of one export, read by an adapter or written by the generator. */
export interface FileContext {
  county: RegistryCounty;
  taxYear: number;
  /** YYYY-MM-DD the export is dated (writers only); keeps generated files byte-identical per seed. */
  asOf?: string;
}
