import { countyHolderName } from '../../services/domain/county-facts.ts';
import { holderId, normalizeHolderName } from '../../services/domain/ids.ts';
import { HolderRecord } from '../../services/domain/records.ts';
import type { Registry } from '../../services/domain/registry.ts';
import { HOLDER_HEADER, type HolderAdapted, type HolderInput } from '../adapters/holders-csv.ts';
import { type Built, schemaProblems } from '../load/two-pass-load.ts';
import { ROW, type RowProblem } from '../adapters/types.ts';

/** The builder of holders-csv rows (adapters/holders-csv.ts reads them). */

export interface HolderBuildContext {
  /** Every known county slug. */
  countySlugs: ReadonlySet<string>;
  /** normalizeHolderName of each county's own name ("alachua county"): not a holder. */
  countyHolderNames: ReadonlySet<string>;
  /** ISO timestamp stamped on every record of one load. */
  updatedAt: string;
}

export function holderBuildContext(registry: Registry, updatedAt: string): HolderBuildContext {
  return {
    countySlugs: new Set(registry.counties.map((c) => c.slug)),
    countyHolderNames: new Set(registry.counties.map((c) => normalizeHolderName(countyHolderName(c.name)))),
    updatedAt,
  };
}

/** An adapted row -> a holder, or every reason it cannot be one. */
export function buildHolder(adapted: HolderAdapted, ctx: HolderBuildContext): Built<HolderRecord> {
  const { input } = adapted;
  const reasons: RowProblem[] = [...adapted.reasons];
  const need = (name: keyof HolderInput) => {
    if (input[name] === null && !adapted.reasons.some((r) => r.field === name || r.field === ROW))
      reasons.push({ field: name, problem: 'required' });
  };
  for (const key of HOLDER_HEADER) need(key);

  const name = input.holder_name;
  const normalized = name === null ? '' : normalizeHolderName(name);
  if (name !== null && normalized === '')
    reasons.push({ field: 'holder_name', problem: `${JSON.stringify(name)} has no letters or digits` });
  if (ctx.countyHolderNames.has(normalized))
    reasons.push({
      field: 'holder_name',
      problem: `${JSON.stringify(name)} is a county; county-held certificates have no holder record`,
    });
  const counties = [...new Set(input.counties ?? [])].sort();
  for (const slug of counties)
    if (!ctx.countySlugs.has(slug)) reasons.push({ field: 'counties', problem: `${JSON.stringify(slug)} is not a county slug` });
  const { first_seen_tax_year: first, last_seen_tax_year: last } = input;
  if (first !== null && last !== null && last < first)
    reasons.push({ field: 'last_seen_tax_year', problem: `${last} is before first_seen_tax_year ${first}` });
  if (reasons.length > 0 || name === null) return { ok: false, reasons };

  const parsed = HolderRecord.safeParse({
    id: holderId(name),
    name,
    normalized_name: normalized,
    certificate_count: input.certificate_count,
    outstanding_face_amount: input.outstanding_face_amount,
    counties,
    first_seen_tax_year: first,
    last_seen_tax_year: last,
    updated_at: ctx.updatedAt,
  });
  if (parsed.success) return { ok: true, record: parsed.data };
  return { ok: false, reasons: schemaProblems(parsed.error.issues) };
}
