import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import { EngineError } from '../../engine/search.ts';
import { ApiError } from '../errors.ts';
import { shortText } from '../params/issues.ts';
import type { Tool, ToolContext } from './tool.ts';

export const SERVER_INFO = { name: 'taxcert', title: 'Florida Tax Certificate Data', version: '1.0.0' };

const INSTRUCTIONS = [
  'Data on Florida tax certificates (tax liens): certificates, annual county certificate sales,',
  'certificate holders, lands-available records, the 67 counties and the feed sources, the same data as the REST API /api/v1.',
  "The data is read-only; the only writes are the caller's own saved searches (create_saved_search and its siblings):",
  'a name and search_certificates filters, whose current matches saved_search_matches answers.',
  'A certificate is a first lien for unpaid property taxes, not ownership. County filters take slugs (list_counties).',
  'Arguments take what the REST query string takes: a multi-value filter one value, a comma-separated string or an array;',
  'numbers and booleans as JSON or as text ("25", "true").',
  'List tools page with limit and offset (pagination.has_more says whether to call again). Each tools/call costs 1 credit',
  '(calls that fail cost nothing); initialize and tools/list are free. get_usage shows the credits used this month.',
].join(' ');

/** Whether the tools/call of this HTTP request answered a result (it keeps its credit) or not. */
export interface CallOutcome {
  succeeded: boolean;
}

/**
 * A new MCP server for one HTTP request (stateless Streamable HTTP: a server and
 * transport serve one request and are dropped; the SDK refuses to reuse them).
 * The low-level Server, not McpServer: our tools parse their arguments with the
 * REST schemas themselves, so a bad argument is a tool error naming it in the
 * REST API's words (the caller can fix it from the same docs) rather than the SDK's own message.
 */
export function createMcpServer(tools: readonly Tool[], ctx: ToolContext, outcome: CallOutcome): Server {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const server = new Server(SERVER_INFO, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((t) => t.definition) }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    // An unknown tool is a protocol error (MCP tools spec), not a tool result.
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        // The name is echoed cut short: it is the caller's text, of any length.
        `unknown tool ${JSON.stringify(shortText(request.params.name))}; tools/list names the ${tools.length} tools`,
      );
    const started = performance.now();
    const result = await callTool(tool, ctx, request.params.arguments);
    outcome.succeeded = result.isError !== true;
    // Every MCP request is POST /api/mcp in the access log: this line says which tool answered what.
    ctx.log.info({ tool: tool.name, ok: outcome.succeeded, ms: Math.round(performance.now() - started) }, 'mcp tool call');
    return result;
  });
  return server;
}

/** Every failure of a call becomes a tool error the agent can read: never a crash, never a JSON-RPC 500. */
async function callTool(tool: Tool, ctx: ToolContext, args: unknown): Promise<CallToolResult> {
  try {
    return await tool.run(ctx, tool.parse(args));
  } catch (err) {
    if (err instanceof ApiError) return tool.error(err, ctx.requestId);
    if (err instanceof EngineError)
      ctx.log.error({ err, tool: tool.name, operation: err.operation, reason: err.reason }, 'engine call failed');
    else ctx.log.error({ err, tool: tool.name }, 'tool failed');
    return tool.error(new ApiError('internal_error', 'internal server error; retry with backoff'), ctx.requestId);
  }
}
