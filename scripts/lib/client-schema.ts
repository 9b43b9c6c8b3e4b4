import openapiTS, { astToString } from 'openapi-typescript';

/**
 * What the TypeScript client in clients/typescript is generated from: the document the app
 * serves, asked of an app built in this process. Building the document reads no index and no
 * row, so a throwaway SQLite file is all it needs; nothing is written to OpenSearch or Redis.
 */

export const CLIENT_SRC = new URL('../../clients/typescript/src/', import.meta.url);

const HEADER = '// Generated from the served OpenAPI document by `npm run clients:write`: do not edit by hand.\n';

export type Document = { paths: Record<string, Record<string, { operationId?: string; parameters?: { in: string; name: string }[] }>> };

/** schema.ts: openapi-typescript's paths, operations and components of the document. */
export async function schemaSource(document: Document): Promise<string> {
  return HEADER + astToString(await openapiTS(document as never));
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/**
 * operations.ts: every operation's method, path and path parameters, keyed by operationId, so the
 * client has one method per operation at run time; `satisfies` against the generated types makes
 * a missing or extra operation a type error.
 */
export function operationsSource(document: Document): string {
  const rows: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op?.operationId) continue;
      const pathParams = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      rows.push(
        `  ${op.operationId}: { method: '${method.toUpperCase()}', path: '${path}', pathParams: [${pathParams.map((p) => `'${p}'`).join(', ')}] },`,
      );
    }
  }
  rows.sort();
  return `${HEADER}import type { operations } from './schema.ts';

export interface OperationInfo {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  pathParams: readonly string[];
}

export const OPERATIONS = {
${rows.join('\n')}
} as const satisfies Record<keyof operations, OperationInfo>;

export type OperationId = keyof typeof OPERATIONS;
`;
}
