import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type OpenApiDocument, pythonClient } from '../../../scripts/lib/python-client.ts';
import { servedDocument } from '../../../scripts/lib/served-document.ts';

const PACKAGE = fileURLToPath(new URL('../../../clients/python/taxcert/', import.meta.url));

/**
 * The Python client's generated modules are committed (a customer installs the folder, with no
 * Node to run), so they must be what the served document generates today: a route or a schema
 * changed without `npm run clients:write` fails here.
 */
describe('clients/python/taxcert generated modules', () => {
  it('equal a fresh generation from the document the app serves', async () => {
    const fresh = pythonClient(await servedDocument<OpenApiDocument>());
    const hint = 'stale: run `npm run clients:write` and commit the result';
    expect(readFileSync(`${PACKAGE}types.py`, 'utf8'), hint).toBe(fresh.types);
    expect(readFileSync(`${PACKAGE}operations.py`, 'utf8'), hint).toBe(fresh.operations);
  }, 60_000);
});
