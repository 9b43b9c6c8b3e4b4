import type { CallToolResult, Tool as ToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { ApiDeps } from '../deps.ts';
import { type ListResult, listEnvelope, type ObjectResult, objectEnvelope } from '../envelope.ts';
import { MAX_LIMIT } from '../params/common.ts';
import { type ApiError, InvalidParamsError } from '../errors.ts';
import { acceptedJsonSchema } from '../params/json-schema.ts';
import { IssueList } from '../params/issues.ts';
import { kindOf } from '../params/kinds.ts';
import { parseParams } from '../params/parse.ts';
import { publishedOverride } from '../params/published.ts';
import { parseBody } from '../writes/body.ts';
import type { Caller } from './gate.ts';

/**
 * One MCP tool = one REST operation: its input is the route's own zod parameter schema,
 * read by the same coercion as the query string (params/coerce.ts), and `run` calls
 * the route's own read function, so a tool accepts what the REST route accepts and
 * answers what it answers: one definition, two surfaces, no second query path that
 * could drift from the first, and the same arguments on both. A write's tool (POST,
 * PATCH, DELETE) also takes its route's JSON body schema: the body's fields are
 * arguments beside the path's, read as REST reads a body (writes/body.ts), and `run`
 * calls the route's own write function.
 */

export interface ToolContext {
  deps: ApiDeps;
  /** The HTTP request's id (req_<id>): meta.request_id of every result, and the log's correlation id. */
  requestId: string;
  /** The request's logger (its lines carry request_id). */
  log: FastifyBaseLogger;
  /** The authenticated caller (get_usage reads its bucket). */
  access: Caller;
}

export type ReadResult = ListResult<unknown> | ObjectResult<unknown>;

export interface ToolSpec<S extends z.ZodType, B extends z.ZodType = z.ZodNever> {
  name: string;
  title: string;
  /**
   * What an agent needs to pick the tool. The REST twin, the argument names, paging
   * and the credit a call costs are added from the spec itself (describe()), so no
   * sentence about them can contradict the schema.
   */
  description: string;
  /**
   * The REST twin, e.g. "GET /api/v1/counties": named in the description, and tool errors name this
   * tool instead of it. Its method gives the hints a client shows before a call (annotations()).
   */
  rest: string;
  /** The REST route's querystring (or path) schema, as it is. */
  input: S;
  /**
   * A write's JSON body schema, as the REST route has it: its fields are arguments beside input's,
   * read with the body's own rules (JSON values as they are, no query-string coercion) and
   * published as the body schema has them.
   */
  body?: B;
  /** The REST route's 200 body schema: structuredContent has exactly that shape. */
  output: z.ZodType;
  /** Plural noun for the one-line summary of a list, e.g. "certificates". */
  noun: string;
  /** Costs no credit (get_usage, like GET /account/usage). */
  free?: boolean;
  /** An analytic read: counted in the client's analytic share, like its REST twin (access.holdAnalytic). */
  analytic?: boolean;
  /** One line about an object result (defaults to the title). */
  summarize?: (data: never) => string;
  run: (ctx: ToolContext, params: z.output<S>, body: z.output<B>) => ReadResult | Promise<ReadResult>;
}

export interface Tool {
  name: string;
  /** The REST twin, e.g. "GET /api/v1/counties". */
  rest: string;
  /** A call costs no credit. */
  free: boolean;
  /** An analytic read (counted in the client's analytic share). */
  analytic: boolean;
  /** The tools/list entry, computed once. */
  definition: ToolDefinition;
  /** Arguments -> the read's params (and a write's body), or an InvalidParamsError naming each argument. */
  parse(args: unknown): unknown;
  run(ctx: ToolContext, parsed: unknown): Promise<CallToolResult>;
  /** A failed call as a tool error (toolError), in the words of the tool table it is in. */
  error(err: ApiError, requestId: string): CallToolResult;
}

/**
 * REST-only parameters, left out of every tool: CSV is a REST representation
 * (format=csv); a tool always answers structured content.
 */
const REST_ONLY = new Set(['format']);

interface Parsed {
  params: unknown;
  body: unknown;
}

export function defineTool<S extends z.ZodType, B extends z.ZodType = z.ZodNever>(spec: ToolSpec<S, B>): Tool {
  const shape = Object.fromEntries(Object.entries(objectShape(spec.input)).filter(([k]) => !REST_ONLY.has(k)));
  const bodyShape = spec.body ? objectShape(spec.body) : {};
  const inputSchema = withBody(inputJsonSchema(spec.input, shape), spec.body);
  return {
    name: spec.name,
    rest: spec.rest,
    free: spec.free === true,
    analytic: spec.analytic === true,
    definition: {
      name: spec.name,
      title: spec.title,
      description: describe(spec, shape, bodyShape, inputSchema),
      inputSchema,
      outputSchema: jsonSchema(spec.output, 'output'),
      annotations: { title: spec.title, ...annotations(spec.rest), openWorldHint: false },
    },
    parse(args): Parsed {
      if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args)))
        throw new InvalidParamsError([{ parameter: 'arguments', message: 'must be an object of named arguments' }]);
      const given = (args ?? {}) as Record<string, unknown>;
      if (!spec.body) {
        // The query string's own reading (one value, a comma list or an array; "25" for 25), then the REST schema.
        const parsed = parseParams(spec.input, shape, given);
        if (parsed.error) throw parsed.error;
        return { params: parsed.value, body: undefined };
      }
      // A write: the path's arguments read as above, every other one as a field of the JSON body
      // (an unknown one is the body's "unknown parameter"), every problem of both in one error.
      const issues = new IssueList();
      const [path, body] = partition(given, (name) => Object.hasOwn(shape, name));
      const params = parseParams(spec.input, shape, path, issues);
      const fields = parseBody(spec.body, body, issues);
      if (params.error || fields.error || !issues.empty) throw issues.error();
      return { params: params.value, body: fields.value };
    },
    async run(ctx, parsed) {
      const { params, body } = parsed as Parsed;
      const result = await spec.run(ctx, params as z.output<S>, body as z.output<B>);
      if ('rows' in result) return listResult(spec.noun, listEnvelope(result, ctx.requestId));
      const summary = spec.summarize ? spec.summarize(result.data as never) : spec.title;
      return structured(summary, objectEnvelope(result, ctx.requestId));
    },
    error: (err, requestId) => toolError(err, requestId, spec.name, (text) => text),
  };
}

/**
 * The tools as one table, each speaking of the others by name: the read functions
 * and parameter descriptions are shared with REST and point at REST routes ("GET
 * /api/v1/counties lists the 67 county slugs"); a tool's error and input schema say
 * "the list_counties tool" instead, since an agent can call that and not the path.
 */
export function toolTable(tools: readonly Tool[]): readonly Tool[] {
  const say = routesAsTools(tools);
  return tools.map((tool) => ({
    ...tool,
    definition: { ...tool.definition, inputSchema: JSON.parse(say(JSON.stringify(tool.definition.inputSchema))) },
    error: (err, requestId) => toolError(err, requestId, tool.name, say),
  }));
}

/** "GET /api/v1/counties" -> "the list_counties tool", for every tool's REST twin (the longest first). */
export function routesAsTools(tools: readonly Pick<Tool, 'name' | 'rest'>[]): (text: string) => string {
  const byRoute = new Map(tools.map((t) => [t.rest, t.name]));
  const routes = [...byRoute.keys()].sort((a, b) => b.length - a.length).map((r) => r.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // Not followed by more of a path: /counties is not /counties/{county}.
  const pattern = new RegExp(`(?:${routes.join('|')})(?![\\w/{])`, 'g');
  return (text) => text.replace(pattern, (route) => `the ${byRoute.get(route)} tool`);
}

/**
 * What a client may show before a call, from the REST method: a GET only reads; a POST creates
 * (twice is two); a PATCH overwrites what it names and a DELETE removes, each to the same end
 * however often it is called.
 */
function annotations(
  rest: string,
): Pick<NonNullable<ToolDefinition['annotations']>, 'readOnlyHint' | 'destructiveHint' | 'idempotentHint'> {
  const method = rest.split(' ')[0];
  if (method === 'GET') return { readOnlyHint: true, destructiveHint: false, idempotentHint: true };
  if (method === 'POST') return { readOnlyHint: false, destructiveHint: false, idempotentHint: false };
  if (method === 'PATCH' || method === 'DELETE') return { readOnlyHint: false, destructiveHint: true, idempotentHint: true };
  throw new Error(`a tool's REST twin must start with its method: ${rest}`);
}

function partition(given: Record<string, unknown>, inFirst: (name: string) => boolean): [Record<string, unknown>, Record<string, unknown>] {
  const first: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(given)) (inFirst(name) ? first : rest)[name] = value;
  return [first, rest];
}

/** The spec's own description, then what the schema and the table say: the twin, the arguments, paging, the cost. */
function describe(
  spec: ToolSpec<z.ZodType, z.ZodType>,
  shape: Record<string, z.ZodType>,
  bodyShape: Record<string, z.ZodType>,
  input: ToolDefinition['inputSchema'],
): string {
  const names = [...Object.keys(shape), ...Object.keys(bodyShape)];
  const required = new Set((input.required as string[] | undefined) ?? []);
  const args =
    names.length === 0
      ? 'Takes no arguments.'
      : `Arguments: ${names
          .map((n) => `${n}${required.has(n) ? ' (required)' : ''}${shape[n] && kindOf(shape[n]).list ? ' (one or several)' : ''}`)
          .join(', ')}.`;
  const limit = (input.properties?.limit as { default?: number } | undefined)?.default;
  // A feed paged by cursor (events) pages with after, not offset.
  const paging =
    limit === undefined
      ? ''
      : 'offset' in shape
        ? ` Pages with limit (1-${MAX_LIMIT}, default ${limit}) and offset; pagination.total is exact and has_more says whether to call again.`
        : 'after' in shape
          ? ` Pages with limit (1-${MAX_LIMIT}, default ${limit}) and after: pass pagination.next_after back as after; has_more says whether more are waiting now.`
          : '';
  const cost = spec.free ? 'Free: a call costs no credit.' : 'Each call costs one credit (a call that fails costs nothing).';
  return `${spec.description} Same as ${spec.rest}. ${args}${paging} ${cost}`;
}

function listResult(noun: string, envelope: ReturnType<typeof listEnvelope>): CallToolResult {
  const { data, pagination: p, meta } = envelope;
  let summary: string;
  if (p.total === 0)
    summary = meta.coverage ? `No ${noun}: this dataset is not ingested yet (meta.coverage.status not_yet_ingested).` : `No ${noun} match.`;
  else if (data.length === 0) summary = `No ${noun} at offset ${p.offset}; the result has ${p.total} in all.`;
  else
    summary =
      `${noun[0]!.toUpperCase()}${noun.slice(1)} ${p.offset + 1}-${p.offset + data.length} of ${p.total}.` +
      (p.has_more ? ` More: call again with ${more(p, data.length)}.` : '');
  return structured(summary, envelope);
}

/** How to get the next page: the cursor of a feed paged by cursor (events), else the next offset. */
function more(p: ReturnType<typeof listEnvelope>['pagination'], rows: number): string {
  return 'next_after' in p && p.next_after ? `after ${p.next_after}` : `offset ${p.offset + rows}`;
}

/**
 * structuredContent carries the REST body; the content carries a one-line summary
 * and the same body as JSON text, since many clients show a model only `content`
 * (the MCP spec asks for the serialized JSON beside structured content).
 */
function structured(summary: string, body: Record<string, unknown>): CallToolResult {
  return {
    content: [
      { type: 'text', text: summary },
      { type: 'text', text: JSON.stringify(body) },
    ],
    structuredContent: body,
  };
}

/**
 * A tool error: every problem spelled out in the first text, the REST error
 * envelope as JSON in the second. Not as structuredContent: clients check that
 * against the tool's outputSchema (the success shape) even on errors.
 */
export function toolError(err: ApiError, requestId: string, toolName: string, say: (text: string) => string = (t) => t): CallToolResult {
  const body = { error: { code: err.code, message: err.message, request_id: requestId, ...(err.details ? { details: err.details } : {}) } };
  const text =
    err instanceof InvalidParamsError
      ? [
          `Invalid arguments for ${toolName}:`,
          ...err.issues.map((i) => `- ${i.parameter}: ${i.message}`),
          ...(err.omitted > 0 ? [`- and ${err.omitted} more problem${err.omitted > 1 ? 's' : ''}`] : []),
        ].join('\n')
      : `${err.code}: ${err.message}`;
  return {
    isError: true,
    content: [
      { type: 'text', text: say(text) },
      { type: 'text', text: say(JSON.stringify(body)) },
    ],
  };
}

function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) throw new Error('a tool input must be a zod object schema (the REST params)');
  return shape;
}

/**
 * JSON Schema draft-07, as the SDK publishes zod schemas (clients validate with
 * draft-07 validators), of what a call accepts: REST-only parameters left out,
 * each argument's alternatives spelled out (params/json-schema.ts).
 */
function inputJsonSchema(schema: z.ZodType, shape: Record<string, z.ZodType>): ToolDefinition['inputSchema'] {
  const json = jsonSchema(schema, 'input');
  const properties = json.properties as Record<string, unknown> | undefined;
  for (const key of REST_ONLY) delete properties?.[key];
  if (Array.isArray(json.required)) json.required = json.required.filter((k) => !REST_ONLY.has(String(k)));
  return acceptedJsonSchema(shape, json) as ToolDefinition['inputSchema'];
}

/** The path's arguments and a write's body fields as one object of arguments. */
function withBody(path: ToolDefinition['inputSchema'], body: z.ZodType | undefined): ToolDefinition['inputSchema'] {
  if (!body) return path;
  const fields = jsonSchema(body, 'input');
  const required = [...((path.required as string[] | undefined) ?? []), ...((fields.required as string[] | undefined) ?? [])];
  return {
    ...path,
    properties: { ...path.properties, ...(fields.properties as Record<string, object>) },
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): { type: 'object'; [k: string]: unknown } {
  // A field published as what its reader accepts (params/published.ts) is published so here too.
  const json = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any', override: publishedOverride }) as Record<
    string,
    unknown
  >;
  if (json.type !== 'object') throw new Error('tool schemas must describe a JSON object');
  return json as { type: 'object'; [k: string]: unknown };
}
