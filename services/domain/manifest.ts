import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';

/**
 * What `taxcert fixtures generate` writes beside a data set, and `taxcert ingest --manifest` reads.
 * It lives in the domain because both sides import it: the CLI, the benchmarks and the generator
 * (which reads its own sets back), and none of them may import another's room (an import loop between folders).
 */
export const ManifestFile = z.object({
  path: z.string().min(1),
  vendor: z.string().min(1),
  county: z.string().min(1),
  tax_year: z.number().int(),
  rows: z.number().int().nonnegative(),
});

/** A county's parcel file (parcels-csv), loaded with `taxcert ingest --dataset parcels`. */
export const ManifestParcelFile = z.object({
  path: z.string().min(1),
  county: z.string().min(1),
  assessment_year: z.number().int(),
  rows: z.number().int().nonnegative(),
});

export const Manifest = z.object({
  generated_at: z.string().optional(),
  seed: z.number().optional(),
  certificates: z.number().optional(),
  files: z.array(ManifestFile),
  /** Parcel files, apart from `files` because they load into another dataset (a demo set has them). */
  parcels: z.array(ManifestParcelFile).optional(),
  /** A JSON file (relative to the manifest) holding source rows, spec 2.7 fields. */
  sources: z.string().optional(),
});
export type Manifest = z.infer<typeof Manifest>;

export const SourceEntry = z.object({
  countySlug: z.string(),
  taxYear: z.number().int(),
  vendor: z.string(),
  saleUrl: z.string().nullable().optional(),
  downloadUrl: z.string().nullable().optional(),
  sourceKind: z.string(),
  requiresLogin: z.boolean().optional(),
  active: z.boolean().optional(),
  notes: z.string().optional(),
});
export type SourceEntry = z.infer<typeof SourceEntry>;

export class ManifestError extends Error {
  override name = 'ManifestError';
}

function readJson(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ManifestError(`${what} ${path} ${unreadable((err as NodeJS.ErrnoException).code, err)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ManifestError(`${what} ${path} is not valid JSON`);
  }
}

/** Why a file could not be read, in words rather than an errno code an operator must look up. */
function unreadable(code: string | undefined, err: unknown): string {
  switch (code) {
    case 'ENOENT':
      return 'does not exist';
    case 'EISDIR':
      return 'is a folder, not a file';
    case 'EACCES':
    case 'EPERM':
      return 'cannot be read: permission denied';
    case 'ENOTDIR':
      return 'does not exist (a part of its path is not a folder)';
    default:
      return `cannot be read: ${err instanceof Error ? err.message : String(err)}`;
  }
}

function explain(error: z.ZodError, what: string, path: string): ManifestError {
  const issue = error.issues[0];
  return new ManifestError(`${what} ${path}: ${issue?.path.join('.') || 'document'}: ${issue?.message}`);
}

/** Reads a manifest; file paths come back absolute, resolved against the manifest's folder. */
export function readManifest(manifestPath: string): { manifest: Manifest; sources: SourceEntry[] } {
  const path = resolve(manifestPath);
  const parsed = Manifest.safeParse(readJson(path, 'manifest'));
  if (!parsed.success) throw explain(parsed.error, 'manifest', path);
  const dir = dirname(path);
  const absolute = <T extends { path: string }>(f: T): T => ({ ...f, path: resolve(dir, f.path) });
  const manifest = { ...parsed.data, files: parsed.data.files.map(absolute), parcels: parsed.data.parcels?.map(absolute) };
  if (!manifest.sources) return { manifest, sources: [] };
  const sourcesPath = resolve(dir, manifest.sources);
  const sources = z.array(SourceEntry).safeParse(readJson(sourcesPath, 'sources file'));
  if (!sources.success) throw explain(sources.error, 'sources file', sourcesPath);
  return { manifest, sources: sources.data };
}
