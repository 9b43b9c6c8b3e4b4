/**
 * Writes the generated modules of the Python client from the OpenAPI document the app serves:
 *
 *   npm run clients:write
 *
 * The app is built in-process on a throwaway SQLite file, as the OpenAPI tests build it, and
 * asked for /api/v1/openapi.json (no engine or Redis call is needed for that); the document
 * becomes clients/python/taxcert/types.py and operations.py (scripts/lib/python-client.ts).
 * Run it after changing a route or a schema and commit the result: a test compares them.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { servedDocument } from './lib/served-document.ts';
import { type OpenApiDocument, pythonClient } from './lib/python-client.ts';

const OUT = fileURLToPath(new URL('../clients/python/taxcert/', import.meta.url));

const { types, operations } = pythonClient(await servedDocument<OpenApiDocument>());
writeFileSync(`${OUT}types.py`, types);
writeFileSync(`${OUT}operations.py`, operations);
console.error(`wrote ${OUT}types.py and ${OUT}operations.py`);
