import { describe, expect, it } from 'vitest';
import { type OpenApiDocument, pythonClient, pythonName, snakeCase } from '../../../../scripts/lib/python-client.ts';

/** A small document with one of each rule's cases; the real one is checked by the live test. */
const DOCUMENT: OpenApiDocument = {
  paths: {
    '/api/v1/things/search': {
      get: {
        operationId: 'searchThings',
        summary: 'Search things',
        parameters: [
          { name: 'status', in: 'query', schema: { type: 'array', items: { type: 'string', enum: ['open', 'closed'] } } },
          { name: 'limit', in: 'query', schema: { type: 'integer', maximum: 500 } },
          { name: 'offset', in: 'query', schema: { type: 'integer' } },
          { name: 'format', in: 'query', schema: { type: 'string', enum: ['json', 'csv'] } },
        ],
        responses: {
          200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingList' } }, 'text/csv': {} } },
        },
      },
    },
    '/api/v1/things/{id}': {
      patch: {
        operationId: 'updateThing',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'idempotency-key', in: 'header', schema: { type: 'string' } },
        ],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } } },
        },
        responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } } },
      },
    },
    '/things/{id}.ics': {
      get: {
        operationId: 'getThingCalendar',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { content: { 'text/calendar': {} } } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        description: 'A thing.',
        properties: {
          id: { type: 'string' },
          status: { type: 'string', enum: ['open', 'closed'] },
          closed_on: { anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }] },
          size: { type: ['number', 'null'] },
          tags: { type: 'array', items: { type: 'string' } },
          owner: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          extra: { type: 'object', additionalProperties: { type: 'integer' } },
        },
        required: ['id', 'status', 'closed_on', 'size', 'tags'],
      },
      ThingList: {
        type: 'object',
        properties: {
          data: { type: 'array', items: { $ref: '#/components/schemas/Thing' } },
          pagination: { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] },
        },
        required: ['data', 'pagination'],
      },
      Window: { type: 'object', properties: { from: { type: 'string' } }, required: ['from'] },
      Kind: { type: 'string', enum: ['a', 'b'] },
    },
  },
};

describe('the Python client generator', () => {
  const { types, operations } = pythonClient(DOCUMENT);

  it('writes a TypedDict per schema: required keys plain, the rest NotRequired, nullable as Optional, enums as Literal', () => {
    expect(types).toContain(
      [
        'class Thing(TypedDict):',
        '    """A thing."""',
        '    id: str',
        '    status: Literal["open", "closed"]',
        '    closed_on: Optional[str]',
        '    size: Optional[float]',
        '    tags: List[str]',
        '    owner: NotRequired[ThingOwner]',
        '    extra: NotRequired[Dict[str, int]]',
        '',
      ].join('\n'),
    );
    expect(types).toContain('class ThingOwner(TypedDict):\n    name: str\n');
    expect(types).toContain('class ThingList(TypedDict):\n    data: List[Thing]\n');
    // A key that is a Python keyword: the functional syntax, its type a string.
    expect(types).toContain('Window = TypedDict(\n    "Window",\n    {\n        "from": \'str\',\n    },\n)');
    expect(types).toContain('Kind: TypeAlias = \'Literal["a", "b"]\'');
  });

  it('writes one method per operation named in snake_case, a CSV twin, an iterator for a list, and the Idempotency-Key as an argument', () => {
    expect(operations).toContain(
      '    def search_things(\n        self,\n        *,\n        status: Optional[List[Literal["open", "closed"]]] = None,\n        limit: Optional[int] = None,\n        offset: Optional[int] = None,\n    ) -> ThingList:',
    );
    expect(operations).toMatch(/def search_things_csv\([^)]*\) -> str:/);
    // The iterator takes no offset: it walks from the start.
    expect(operations).toMatch(
      /def iter_search_things\(\s*self,\s*\*,\s*status: [^\n]*,\s*limit: Optional\[int\] = None,\s*\) -> Iterator\[Thing\]:/,
    );
    expect(operations).toContain(
      'def update_thing(self, id: str, body: UpdateThingBody, *, idempotency_key: Optional[str] = None) -> Thing:',
    );
    expect(operations).toContain('def get_thing_calendar(self, id: str) -> str:');
    expect(operations).toContain('paging="offset",\n        page_size=500,\n        csv=True,\n        accept="application/json",');
    expect(operations).toContain('paging=None,\n        page_size=None,\n        csv=False,\n        accept="text/calendar",');
    expect(operations).toContain('Param("idempotency_key", "idempotency-key", "header", required=False, explode=True),');
  });

  it('names Python arguments and methods in snake_case, keywords with a trailing underscore', () => {
    expect(snakeCase('getOpenApiDocument')).toBe('get_open_api_document');
    expect(snakeCase('listPortfolioPositions')).toBe('list_portfolio_positions');
    expect(pythonName('from')).toBe('from_');
    expect(pythonName('position_id')).toBe('position_id');
  });
});
