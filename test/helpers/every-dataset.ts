import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { enqueueFiles } from '../../services/process/ingest-runner.ts';
import type { Runtime } from '../../services/process/runtime.ts';

/** A file under fixtures/, by its path there. */
export const fixturePath = (path: string) => fileURLToPath(new URL(`../../fixtures/${path}`, import.meta.url));

/**
 * A county's certificates, and the fixture files of holders and lands-available, through the
 * ingest path as the worker runs it (each must succeed): every read of the API has rows to answer.
 */
export async function loadEveryDataset(
  runtime: Runtime,
  certificates: { file: string; county: string; taxYear: number },
  datasets: readonly ('holders' | 'lands-available')[] = ['holders', 'lands-available'],
): Promise<void> {
  const others = {
    holders: { dataset: 'holders', file: fixturePath('files/holders/good.csv'), vendor: 'manual', county: 'alachua', taxYear: 2024 },
    'lands-available': {
      dataset: 'lands-available',
      file: fixturePath('files/lands-available/good.csv'),
      vendor: 'county_local',
      county: 'alachua',
      taxYear: 2024,
    },
  } as const;
  const jobs = [{ dataset: 'certificates', vendor: 'lienport', ...certificates } as const, ...datasets.map((d) => others[d])];
  const outcomes = await enqueueFiles(runtime, jobs, { wait: true });
  expect(outcomes.map((o) => o.status)).toEqual(jobs.map(() => 'succeeded'));
}
