import { describe, expect, it } from 'vitest';
import { buildCertificateSearch } from '../../../../../services/api/routes/certificates/build-search.ts';
import type { CertificateSearchParams } from '../../../../../services/api/routes/certificates/params.ts';
import { allBits, count, positions } from '../../../../../services/engine/local-percolation/bits.ts';
import { compileQuery } from '../../../../../services/engine/local-percolation/compile.ts';
import { DocBatch } from '../../../../../services/engine/local-percolation/evaluate.ts';
import { fieldKinds } from '../../../../../services/engine/local-percolation/field-kinds.ts';
import { loadMapping } from '../../../../../services/engine/mapping-file.ts';

const fields = fieldKinds(loadMapping('certificates'));
const compiled = (p: Partial<CertificateSearchParams>) => compileQuery(fields, buildCertificateSearch(p as CertificateSearchParams).query);

const docs = [
  { county_slug: 'lee', status: 'sold', face_amount: 1500, holder_name: 'ACME TAX FUND LLC', tax_year: 2024, sale_date: '2025-06-01' },
  { county_slug: 'lee', status: 'redeemed', face_amount: 500, holder_name: 'Acmé Tax', tax_year: 2024, sale_date: '2025-06-01' },
  { county_slug: 'duval', status: 'sold', face_amount: 2500, holder_name: null, tax_year: 2023, sale_date: '2024-06-01' },
];

describe('saved searches compiled for the worker', () => {
  it('judges filters on keywords, numbers, scaled floats and dates itself', () => {
    const batch = new DocBatch(docs);
    const v = batch.evaluate(compiled({ county: ['lee'], status: ['sold'], face_min: 1000, tax_year: [2024] }));
    expect(positions(v.t)).toEqual([0]);
    expect(count(v.u)).toBe(0);
    const dates = batch.evaluate(compiled({ sale_after: '2025-01-01' }));
    expect(positions(dates.t)).toEqual([0, 1]);
  });

  it('leaves an accented name to the engine, and only the documents the other filters let through', () => {
    const batch = new DocBatch(docs);
    const v = batch.evaluate(compiled({ holder: 'acme tax', county: ['lee'] }));
    expect(positions(v.t)).toEqual([0]);
    expect(positions(v.u)).toEqual([1]);
  });

  it('leaves free text to the engine but decides the documents a filter excludes', () => {
    const batch = new DocBatch(docs);
    const v = batch.evaluate(compiled({ query: 'smith', county: ['duval'] }));
    expect(count(v.t)).toBe(0);
    expect(positions(v.u)).toEqual([2]);
  });

  it('matches everything with no filter, and reads nothing it does not know as decided', () => {
    const batch = new DocBatch(docs);
    expect(batch.evaluate(compiled({})).t).toEqual(allBits(3));
    expect(compileQuery(fields, { match: { owner_name: 'x' } })).toEqual({ k: 'unknown' });
    expect(compileQuery(fields, { range: { sale_date: { gte: 'now-1d' } } })).toEqual({ k: 'unknown' });
    expect(compileQuery(fields, { term: { holder_name: 'acme' } })).toEqual({ k: 'unknown' });
    expect(compileQuery(fields, { bool: { should: [{ match_all: {} }], minimum_should_match: '50%' } })).toEqual({ k: 'unknown' });
  });
});
