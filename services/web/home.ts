import type { FastifyInstance } from 'fastify';
import { PRODUCT_NAME } from '../api/openapi/description.ts';
import { setPageHeaders } from './headers.ts';

/**
 * GET /: the address the start-up banner prints. A person who opens it finds the product's name
 * and the three ways in (the docs, the account page, the OpenAPI document), not a JSON 404. It
 * holds no account data, but is served under the account pages' headers all the same, so the
 * site has one policy (no framing, no inline script or style, no Referer).
 */
export const HOME_LINKS = [
  {
    href: '/docs',
    label: 'API documentation',
    text: 'every operation, its parameters and answers, with a form to try each with your key.',
  },
  { href: '/explore', label: 'Explore the data', text: 'search, narrow and chart the certificates in the browser, then save the search.' },
  { href: '/account', label: 'Your account', text: 'sign up or sign in, create API keys, see your usage, choose a plan, add webhooks.' },
  { href: '/api/v1/openapi.json', label: 'The OpenAPI document', text: 'the same operations as OpenAPI 3.1, to generate a client from.' },
] as const;

const HOME = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${PRODUCT_NAME}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/account/assets/site.css">
</head>
<body>
<a class="skip" href="#main">Skip to the content</a>
<header class="top">
  <div class="wrap top-row">
    <a class="brand" href="/">Tax certificate data</a>
    <nav aria-label="Site">
      <ul>
${HOME_LINKS.map((l) => `        <li><a href="${l.href}">${l.label}</a></li>`).join('\n')}
      </ul>
    </nav>
  </div>
</header>
<main id="main" class="wrap">
<h1>${PRODUCT_NAME}</h1>
<p class="lead">Florida tax certificates (tax liens), the county certificate sales, certificate holders, lands available for taxes and the 67-county directory, through a REST API and an MCP server (<code>/api/mcp</code>).</p>
<section class="card" aria-labelledby="start-heading">
  <h2 id="start-heading">Where to start</h2>
  <ul class="links">
${HOME_LINKS.map((l) => `    <li><a href="${l.href}">${l.label}</a>: ${l.text}</li>`).join('\n')}
  </ul>
</section>
</main>
<footer class="wrap foot">
  <p>Independent of any government agency.</p>
</footer>
</body>
</html>
`;

export function registerHome(app: FastifyInstance): void {
  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    setPageHeaders(reply);
    return reply.type('text/html; charset=utf-8').send(HOME);
  });
}
