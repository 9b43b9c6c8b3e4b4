import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_SRC, type Document, operationsSource, schemaSource } from '../../../../scripts/lib/client-schema.ts';
import { servedDocument } from '../../../../scripts/lib/served-document.ts';

/**
 * The client's committed types and operation table are what `npm run clients:write` makes of the
 * document the app serves today: a route, parameter or answer that changes without regenerating
 * them fails here, so the published client never drifts from the API.
 */
describe('the TypeScript client is generated from the served document', () => {
  it('schema.ts and operations.ts equal a fresh generation', async () => {
    const document = await servedDocument<Document>();
    const committed = (name: string) => readFileSync(new URL(name, CLIENT_SRC), 'utf8');
    expect(committed('schema.ts'), 'run npm run clients:write').toBe(await schemaSource(document));
    expect(committed('operations.ts'), 'run npm run clients:write').toBe(operationsSource(document));
    // One entry per operation of the document.
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.operationId ? [op.operationId] : [])),
    );
    expect(committed('operations.ts').match(/^ {2}\w+: \{ method:/gm)).toHaveLength(ids.length);
  });
});
