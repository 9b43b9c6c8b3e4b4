import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { readManifest } from '../../services/domain/manifest.ts';
import { generateFixtures } from '../../services/generator/generate-fixtures.ts';

export interface BenchSet {
  /** bin/taxcert.js */
  bin: string;
  env: NodeJS.ProcessEnv;
  /** the set's folder (bench-out/<prefix>): the generated files go in its files/ */
  dir: string;
  certificates: number;
  seed: number;
  today: string;
  /** Load the set's parcel rolls after the certificates (default true; the join takes 2-3x the certificates' ingest). */
  parcels?: boolean;
}

/**
 * Generate a data set and load it through the real queue and worker, as production does
 * (migrate, `taxcert worker`, `taxcert ingest --manifest --wait`). The worker is still running
 * when this returns, so a caller can read its memory before stopping it.
 */
export async function generateAndIngest(
  set: BenchSet,
): Promise<{ worker: ChildProcess; files: string; ingestSeconds: number; parcelSeconds: number; parcelRows: number }> {
  const files = join(set.dir, 'files');
  let t = Date.now();
  // A roll as large as the certificates (the parcel layer's target compares loading a roll of N rows
  // and joining it onto N certificates with ingesting the N certificates).
  await generateFixtures({
    out: files,
    certificates: set.certificates,
    seed: set.seed,
    today: set.today,
    parcelRollRows: set.certificates,
  });
  console.error(`generated ${set.certificates} certificates in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  execFileSync(set.bin, ['migrate'], { env: set.env, stdio: ['ignore', 'ignore', 'inherit'] });
  const worker = spawn(set.bin, ['worker'], { env: set.env, stdio: ['ignore', 'ignore', 'inherit'] });
  t = Date.now();
  try {
    execFileSync(set.bin, ['ingest', '--manifest', join(files, 'manifest.json'), '--wait'], {
      env: set.env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (err) {
    worker.kill('SIGTERM');
    throw err;
  }
  const ingestSeconds = Math.round((Date.now() - t) / 100) / 10;
  console.error(`ingested in ${ingestSeconds} s`);
  // Then the set's parcel rolls, each joined onto its county's certificates already searchable:
  // the parcel layer's load, timed apart so it compares with the certificates' ingest.
  if (set.parcels === false) return { worker, files, ingestSeconds, parcelSeconds: 0, parcelRows: 0 };
  const parcelRows = (readManifest(join(files, 'manifest.json')).manifest.parcels ?? []).reduce((n, f) => n + f.rows, 0);
  t = Date.now();
  try {
    execFileSync(set.bin, ['ingest', '--manifest', join(files, 'manifest.json'), '--dataset', 'parcels', '--wait'], {
      env: set.env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (err) {
    worker.kill('SIGTERM');
    throw err;
  }
  const parcelSeconds = Math.round((Date.now() - t) / 100) / 10;
  console.error(
    `${parcelRows} parcel rows loaded and joined onto the certificates in ${parcelSeconds} s (${(parcelSeconds / ingestSeconds).toFixed(2)}x the certificates' ingest; target at most 3x)`,
  );
  return { worker, files, ingestSeconds, parcelSeconds, parcelRows };
}
