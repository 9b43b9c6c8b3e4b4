import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../../../../services/api/mcp/tools.ts';

// docs/mcp.md said nineteen tools and left list_events out while the server listed 20: the
// table of the doc is read here and must name exactly the server's tools, each with its REST twin.

const doc = readFileSync(new URL('../../../../../docs/mcp.md', import.meta.url), 'utf8');

/** The rows of the tool table: | `name` | `GET /api/v1/...` ... | (or POST, PATCH, DELETE for a write). */
const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| `((?:GET|POST|PATCH|DELETE) [^`]+)`/gm)].map((m) => ({ name: m[1]!, rest: m[2]! }));

describe('docs/mcp.md', () => {
  it('lists exactly the tools the server lists, each with its REST route', () => {
    expect(rows.map((r) => r.name).sort()).toEqual(TOOLS.map((t) => t.name).sort());
    for (const tool of TOOLS) expect(rows.find((r) => r.name === tool.name)?.rest, tool.name).toBe(tool.rest);
  });

  it('gives their number as the server has it', () => {
    expect(doc).toContain(`(the ${TOOLS.length} tools of the table below)`);
  });
});
