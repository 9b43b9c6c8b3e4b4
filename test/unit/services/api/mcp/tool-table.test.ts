import { describe, expect, it } from 'vitest';
import { routesAsTools } from '../../../../../services/api/mcp/tool.ts';
import { TOOLS } from '../../../../../services/api/mcp/tools.ts';

describe('the tool table speaks of tools, not REST paths', () => {
  const say = routesAsTools(TOOLS);

  it('names the tool of a REST route, the longest route first, and leaves other text alone', () => {
    expect(say('unknown county slug "x"; GET /api/v1/counties lists the 67 county slugs')).toBe(
      'unknown county slug "x"; the list_counties tool lists the 67 county slugs',
    );
    expect(say('see GET /api/v1/counties/{county}.')).toBe('see the get_county tool.');
    expect(say('GET /api/v1/counties/miami-dade')).toBe('GET /api/v1/counties/miami-dade');
    expect(say('GET /api/v1/certificates/search, GET /api/v1/certificates/{id}')).toBe(
      'the search_certificates tool, the get_certificate tool',
    );
  });

  it('every tool has its own REST twin, and no tool input schema mentions a REST path', () => {
    expect(new Set(TOOLS.map((t) => t.rest)).size).toBe(TOOLS.length);
    for (const tool of TOOLS) expect(JSON.stringify(tool.definition.inputSchema), tool.name).not.toMatch(/\/api\/v1/);
  });
});
