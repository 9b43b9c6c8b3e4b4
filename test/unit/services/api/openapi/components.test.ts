import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listResponse } from '../../../../../services/api/envelope.ts';
import { NAMED_SCHEMAS } from '../../../../../services/api/openapi/components.ts';
// Importing the list of names names them, as app.ts does.
import '../../../../../services/api/routes/named-schemas.ts';
import { certificateFields } from '../../../../../services/api/routes/certificates/fields.ts';
import { CertificateRow } from '../../../../../services/api/routes/certificates/row.ts';
import { registry } from '../../../../helpers/registry.ts';

/**
 * The document's names live in a registry of their own (openapi/components.ts, filled by routes/named-schemas.ts):
 * naming a schema for OpenAPI must not change what the MCP tools publish or what
 * the field dictionary derives from the same row schemas with z.toJSONSchema.
 */
describe('named OpenAPI schemas', () => {
  it('are registered (importing routes/named-schemas.ts names them)', () => {
    expect([...NAMED_SCHEMAS]).toEqual(expect.arrayContaining(['Certificate', 'CertificateList', 'Error']));
  });

  it('leave z.toJSONSchema of the same rows inline, as the MCP tools publish them', () => {
    const json = JSON.stringify(z.toJSONSchema(listResponse(CertificateRow), { target: 'draft-7', io: 'output' }));
    expect(json).not.toContain('$ref');
    expect(json).not.toContain('definitions');
  });

  it('leave the field dictionary derived from the row', () => {
    const fields = certificateFields(registry).fields;
    expect(fields.map((f) => f.name)).toEqual(Object.keys(CertificateRow.shape));
  });
});
