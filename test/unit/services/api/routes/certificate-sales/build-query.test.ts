import { describe, expect, it } from 'vitest';
import { buildSalesQuery } from '../../../../../../services/api/routes/certificate-sales/build-query.ts';
import { SalesSearchParams } from '../../../../../../services/api/routes/certificate-sales/params.ts';
import { sortClause } from '../../../../../../services/engine/paging/sort.ts';
import { dslFixtures } from '../../../../../../scripts/lib/dsl-fixtures.ts';

describe('buildSalesQuery against fixtures/queries/certificate-sales', () => {
  it.each(dslFixtures('certificate-sales'))('$name', ({ params, dsl }) => {
    const built = buildSalesQuery(SalesSearchParams.parse(params));
    expect({ query: built.query, sort: sortClause(built.sort) }).toEqual(dsl);
    expect(built.sort.at(-1)).toEqual({ field: 'id', order: 'asc' });
  });
});
