import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES as CLIENT_CODES } from '../../../../clients/typescript/src/errors.ts';
import { ERROR_CODES } from '../../../../services/api/errors.ts';

// The client is published on its own: it may import its own files and Node's built-ins, nothing of
// the service beside it and no package (a customer installs it with nothing else).

const pkg = fileURLToPath(new URL('../../../../clients/typescript/', import.meta.url));
const IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*'([^']+)'/g;

describe('the TypeScript client package', () => {
  it('imports only its own files and node: built-ins', () => {
    const files = readdirSync(join(pkg, 'src')).filter((f) => f.endsWith('.ts'));
    expect(files).toContain('client.ts');
    const outside = files.flatMap((file) =>
      [...readFileSync(join(pkg, 'src', file), 'utf8').matchAll(IMPORT)]
        .map(([, spec]) => spec!)
        .filter((spec) => !spec.startsWith('node:'))
        .filter((spec) => !spec.startsWith('.') || relative(pkg, normalize(join(pkg, 'src', dirname(spec)))).startsWith('..'))
        .map((spec) => `${file}: ${spec}`),
    );
    expect(outside).toEqual([]);
  });

  it('declares no dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.type).toBe('module');
    expect([manifest.dependencies, manifest.peerDependencies]).toEqual([undefined, undefined]);
  });

  // Its own copy, since it imports nothing of the service: kept equal here.
  it('knows every error code the API answers with', () => {
    expect([...CLIENT_CODES].sort()).toEqual([...ERROR_CODES].sort());
  });
});
