import type { CallToolResult, Tool as ToolDefinition } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import type { ApiDeps } from '../deps.ts';
import { type ListResult, listEnvelope, type ObjectResult, objectEnvelope } from '../envelope.ts';
import { type ApiError, InvalidParamsError, type ParamIssue } from '../errors.ts';
import { unknownMessage, zodIssues } from '../params/query-string.ts';
import type { Caller } from './gate.ts';

/**
 * One MCP tool = one REST read: its input is the route's own zod parameter schema
 * and `run` calls the route's own read function, so a tool answers exactly what
 * the REST route answers for the same parameters (issue 11: one definition, two
 * surfaces, no second query path).
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

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  title: string;
  /** What an agent needs to pick the tool; the parameters describe themselves (params.ts). */
  description: string;
  /** The REST route's querystring (or path) schema, as it is. */
  input: S;
  /** The REST route's 200 body schema: structuredContent has exactly that shape. */
  output: z.ZodType;
  /** Plural noun for the one-line summary of a list, e.g. "certificates". */
  noun: string;
  /** Costs no credit (get_usage, like GET /account/usage). */
  free?: boolean;
  /** One line about an object result (defaults to the title). */
  summarize?: (data: never) => string;
  run: (ctx: ToolContext, params: z.output<S>) => ReadResult | Promise<ReadResult>;
}

export interface Tool {
  name: string;
  /** A call costs no credit. */
  free: boolean;
  /** The tools/list entry, computed once. */
  definition: ToolDefinition;
  /** Arguments -> the read's params, or an InvalidParamsError naming each argument. */
  parse(args: unknown): unknown;
  run(ctx: ToolContext, params: unknown): Promise<CallToolResult>;
}

/**
 * REST-only parameters, left out of every tool: CSV is a REST representation
 * (format=csv); a tool always answers structured content.
 */
const REST_ONLY = new Set(['format']);

export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool {
  const shape = objectShape(spec.input);
  const accepted = Object.keys(shape).filter((k) => !REST_ONLY.has(k));
  return {
    name: spec.name,
    free: spec.free === true,
    definition: {
      name: spec.name,
      title: spec.title,
      description: spec.description,
      inputSchema: inputJsonSchema(spec.input),
      outputSchema: jsonSchema(spec.output, 'output'),
      annotations: { title: spec.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    parse(args) {
      if (args !== undefined && (args === null || typeof args !== 'object' || Array.isArray(args)))
        throw new InvalidParamsError([{ parameter: 'arguments', message: 'must be an object of named arguments' }]);
      const given = (args ?? {}) as Record<string, unknown>;
      const unknown: ParamIssue[] = Object.keys(given)
        .filter((k) => !accepted.includes(k))
        .map((parameter) => ({ parameter, message: unknownMessage(parameter, accepted) }));
      if (unknown.length > 0) throw new InvalidParamsError(unknown);
      const parsed = spec.input.safeParse(given);
      // The REST validator's own mapping: a problem is named by its parameter on both surfaces.
      if (!parsed.success) throw new InvalidParamsError(zodIssues(parsed.error));
      return parsed.data;
    },
    async run(ctx, params) {
      const result = await spec.run(ctx, params as z.output<S>);
      if ('rows' in result) return listResult(spec.noun, listEnvelope(result, ctx.requestId));
      const summary = spec.summarize ? spec.summarize(result.data as never) : spec.title;
      return structured(summary, objectEnvelope(result, ctx.requestId));
    },
  };
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
      (p.has_more ? ` More: call again with offset ${p.offset + data.length}.` : '');
  return structured(summary, envelope);
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
export function toolError(err: ApiError, requestId: string, toolName: string): CallToolResult {
  const body = { error: { code: err.code, message: err.message, request_id: requestId, ...(err.details ? { details: err.details } : {}) } };
  const text =
    err instanceof InvalidParamsError
      ? [`Invalid arguments for ${toolName}:`, ...err.issues.map((i) => `- ${i.parameter}: ${i.message}`)].join('\n')
      : `${err.code}: ${err.message}`;
  return {
    isError: true,
    content: [
      { type: 'text', text },
      { type: 'text', text: JSON.stringify(body) },
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
 * draft-07 validators); REST-only parameters are left out.
 */
function inputJsonSchema(schema: z.ZodType): ToolDefinition['inputSchema'] {
  const json = jsonSchema(schema, 'input');
  const properties = json.properties as Record<string, unknown> | undefined;
  for (const key of REST_ONLY) delete properties?.[key];
  if (Array.isArray(json.required)) json.required = json.required.filter((k) => !REST_ONLY.has(String(k)));
  return json as ToolDefinition['inputSchema'];
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): { type: 'object'; [k: string]: unknown } {
  const json = z.toJSONSchema(schema, { io, target: 'draft-7', unrepresentable: 'any' }) as Record<string, unknown>;
  if (json.type !== 'object') throw new Error('tool schemas must describe a JSON object');
  return json as { type: 'object'; [k: string]: unknown };
}
