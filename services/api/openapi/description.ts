/**
 * The document's info.description and tags: what /docs shows above the
 * operations. Markdown, rendered by the docs page; written for a customer
 * seeing the service for the first time.
 */

export const PRODUCT_NAME = 'Tax Certificate Data Service';

const mcpClientConfig = JSON.stringify(
  {
    mcpServers: {
      'tax-certificates': {
        type: 'http',
        url: 'https://<this host>/api/mcp',
        headers: { Authorization: 'Bearer <your API key>' },
      },
    },
  },
  null,
  2,
);

export const DESCRIPTION = `Read-only data on Florida tax certificates (tax liens), the annual county certificate sales, certificate holders, lands-available records and the 67-county directory. Independent of any government agency.

## Authentication

Every \`/api/v1\` request needs an API key, sent in one of two headers:

- \`Authorization: Bearer <your API key>\` (preferred)
- \`X-API-Key: <your API key>\`

A key in the query string (\`?api_key=...\`) is not accepted. A missing, wrong or revoked key, or two headers that disagree, answer \`401\`. Use **Authorize** above to try the operations from this page.

\`\`\`sh
curl -H "Authorization: Bearer $TAXCERT_API_KEY" "https://<this host>/api/v1/certificates/search?county=broward&limit=5"
\`\`\`

## Credits, limits and errors

Each request costs 1 credit, except \`GET /api/v1/account/usage\`; only successful answers are charged. Every keyed answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` and \`RateLimit\`; a \`429\` also carries \`Retry-After\`. Every error has the same body: \`{ "error": { "code", "message", "request_id", "details"? } }\`. List operations answer CSV too, with \`format=csv\` or \`Accept: text/csv\` (plans with CSV).

## MCP

The same data is available to AI agents at \`/api/mcp\`: the Model Context Protocol over Streamable HTTP (stateless; POST JSON-RPC), with the same API key in the same headers and the same credits (1 per tool call; plans with MCP, so not the Free Trial). A client configuration:

\`\`\`json
${mcpClientConfig}
\`\`\`

## Typed clients

This document (\`/api/v1/openapi.json\`) names every operation and schema, so generated clients get methods such as \`searchCertificates\` and types such as \`Certificate\`. For TypeScript:

\`\`\`sh
npx openapi-typescript https://<this host>/api/v1/openapi.json -o taxcert-api.d.ts
npm install openapi-fetch
\`\`\`

\`\`\`ts
import createClient from 'openapi-fetch';
import type { components, paths } from './taxcert-api';

type Certificate = components['schemas']['Certificate'];
// Lists also answer CSV: 'application/json' picks the JSON shape for data.
const api = createClient<paths, 'application/json'>({
  baseUrl: 'https://<this host>',
  headers: { Authorization: \`Bearer \${process.env.TAXCERT_API_KEY}\` },
});
const { data, error } = await api.GET('/api/v1/certificates/search', { params: { query: { county: ['broward'], limit: 5 } } });
const rows: Certificate[] = data?.data ?? []; // on failure, error is the Error envelope
\`\`\`
`;

export const TAGS = [
  {
    name: 'certificates',
    description: 'Tax certificates: search, one by id, every certificate of a parcel, counts, the field dictionary and freshness.',
  },
  { name: 'certificate-sales', description: 'The annual county certificate sales, with their status as of today.' },
  { name: 'holders', description: 'Who holds certificates: names, counties and outstanding face value.' },
  {
    name: 'lands-available',
    description: "Parcels on the counties' lands-available lists (struck off at tax-deed sales), with their opening bids.",
  },
  { name: 'counties', description: 'The 67 Florida counties: identifiers, sale platforms and how deep our coverage goes.' },
  { name: 'sources', description: 'The feed registry: which source feeds each county and tax year, and when it last succeeded.' },
  {
    name: 'bulk',
    description:
      'The data as files: snapshots of certificates, certificate sales and lands available per county and tax year, and of holders, counties and sources (Parquet, gzipped NDJSON and CSV), and daily deltas of certificates and sales, each with its sha256; resumable downloads (plans with CSV).',
  },
  {
    name: 'analytics',
    description:
      'Figures over many certificates, counted exactly: clearing bid rates by scope and county, and who holds them (holder groups).',
  },
  {
    name: 'events',
    description: 'The change feed: what changed, in the order it became visible, for polling clients (and the webhooks built on it).',
  },
  {
    name: 'webhooks',
    description:
      'Your webhook endpoints and every delivery to them, with each attempt (plans with webhooks: Pro in beta, Growth, Lead Feed, Enterprise). Deliveries are signed POSTs following Standard Webhooks; they cost no credits, these reads cost 1 each.',
  },
  {
    name: 'saved searches',
    description:
      'Certificate searches you save by name (the filters of /certificates/search) and their matches, which are that search answered now. Each request costs 1 credit.',
  },
  {
    name: 'portfolios',
    description:
      'The tax certificates you hold, in named portfolios: positions added up to 10,000 a request, each line answered on its own. Each request costs 1 credit.',
  },
  { name: 'account', description: "The calling key's usage; costs no credit." },
  { name: 'service', description: 'Liveness and this document; no API key needed.' },
];
