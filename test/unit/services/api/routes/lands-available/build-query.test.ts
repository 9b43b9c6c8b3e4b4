import { describe, expect, it } from 'vitest';
import { sortClause } from '../../../../../../services/engine/paging/sort.ts';
import { buildLandsQuery } from '../../../../../../services/api/routes/lands-available/build-query.ts';
import { LandsSearchParams } from '../../../../../../services/api/routes/lands-available/params.ts';
import { dslFixtures } from '../../../../../../scripts/lib/dsl-fixtures.ts';

describe('buildLandsQuery against fixtures/queries/lands-available', () => {
  it.each(dslFixtures('lands-available'))('$name', ({ params, dsl }) => {
    const built = buildLandsQuery(LandsSearchParams.parse(params));
    expect({ query: built.query, sort: sortClause(built.sort) }).toEqual(dsl);
    expect(built.sort.at(-1)).toEqual({ field: 'id', order: 'asc' });
  });
});
