import { describe, expect, it } from 'vitest';
import { sortClause } from '../../../../../../services/engine/paging/sort.ts';
import {
  buildOtherCertificates,
  type OtherCertificatesInput,
} from '../../../../../../services/api/routes/certificate-quotes/build-other-certificates.ts';
import { dslFixtures } from '../../../../../../scripts/lib/dsl-fixtures.ts';

describe('buildOtherCertificates against fixtures/queries/certificates-deed-estimate', () => {
  it.each(dslFixtures('certificates-deed-estimate'))('$name', ({ params, dsl }) => {
    const built = buildOtherCertificates(params as OtherCertificatesInput);
    expect({ query: built.query, sort: sortClause(built.sort), size: built.size }).toEqual(dsl);
    expect(built.sort.at(-1)).toEqual({ field: 'id', order: 'asc' });
  });
});
