import { describe, expect, it } from 'vitest';
import { sortClause } from '../../../../../../services/engine/paging/sort.ts';
import { buildHoldersQuery } from '../../../../../../services/api/routes/holders/build-query.ts';
import { HoldersSearchParams } from '../../../../../../services/api/routes/holders/params.ts';
import { dslFixtures } from '../../../../../../scripts/lib/dsl-fixtures.ts';

describe('buildHoldersQuery against fixtures/queries/holders', () => {
  it.each(dslFixtures('holders'))('$name', ({ params, dsl }) => {
    const built = buildHoldersQuery(HoldersSearchParams.parse(params));
    expect({ query: built.query, sort: sortClause(built.sort) }).toEqual(dsl);
    expect(built.sort.at(-1)).toEqual({ field: 'id', order: 'asc' });
  });
});
