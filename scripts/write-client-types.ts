/**
 * Regenerates the TypeScript client's types and operation table from the document the app
 * serves, then review the diff:
 *
 *   npm run clients:write
 *
 * test/integration/clients/typescript/generated.test.ts fails until the committed files equal a
 * fresh generation, so the client never drifts from the routes.
 */
import { writeFileSync } from 'node:fs';
import { CLIENT_SRC, type Document, operationsSource, schemaSource } from './lib/client-schema.ts';
import { servedDocument } from './lib/served-document.ts';

const document = await servedDocument<Document>();
writeFileSync(new URL('schema.ts', CLIENT_SRC), await schemaSource(document));
writeFileSync(new URL('operations.ts', CLIENT_SRC), operationsSource(document));
console.error('wrote clients/typescript/src/schema.ts and operations.ts');
