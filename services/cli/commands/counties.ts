import type { Command } from 'commander';
import { loadConfig } from '../../config.ts';
import { listCounties } from '../../control/ingest/counties.ts';
import { openControlPlane } from '../../control/control-plane.ts';
import { loadRegistry } from '../../domain/registry.ts';
import { wantsJson } from '../json-flag.ts';
import { createOutput } from '../output.ts';

/** `taxcert counties`: the directory an operator needs to name a county (the unknown-county error points here). */
export function countiesCommand(program: Command): void {
  program
    .command('counties')
    .description('list the 67 counties: slug, FIPS, revenue number, sale vendor, coverage and certificate count')
    .action(async (_opts, command: Command) => {
      const config = loadConfig();
      const sql = await openControlPlane(config, { registry: loadRegistry(), indexPrefix: config.INDEX_PREFIX });
      try {
        const counties = (await listCounties(sql)).map((c) => ({
          slug: c.countySlug,
          name: c.countyName,
          fips: c.countyFips,
          revenueNumber: c.dorCountyNumber,
          vendor: c.taxCertificateVendor,
          coverage: c.coverageStatus,
          certificates: c.certificateCount,
          lastImportAt: c.lastImportAt,
        }));
        createOutput(wantsJson(command)).result({ counties }, renderCounties);
      } finally {
        await sql.close();
      }
    });
}

type Row = {
  slug: string;
  name: string;
  fips: string | null;
  revenueNumber: string | null;
  vendor: string | null;
  coverage: string;
  certificates: number;
};

export function renderCounties({ counties }: { counties: Row[] }): string {
  const header = ['slug', 'name', 'fips', 'rev', 'vendor', 'coverage', 'certificates'];
  const rows = counties.map((c) => [
    c.slug,
    c.name,
    c.fips ?? '-',
    c.revenueNumber ?? '-',
    c.vendor ?? '-',
    c.coverage,
    String(c.certificates),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0))).join('  ');
  const total = counties.reduce((n, c) => n + c.certificates, 0);
  return [line(header), ...rows.map(line), `${counties.length} counties, ${total} certificates`].join('\n');
}
