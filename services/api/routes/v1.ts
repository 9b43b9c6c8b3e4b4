import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { registerAccess } from '../access/register.ts';
import type { ApiDeps } from '../deps.ts';
import { usageRoute } from './account/route.ts';
import { bidRatesRoutes } from './analytics/bid-rates/route.ts';
import { bulkRoutes } from './bulk/route.ts';
import { holderGroupsRoute } from './analytics/holders/route.ts';
import { redemptionRoutes } from './analytics/redemption/route.ts';
import { salesRoutes } from './certificate-sales/route.ts';
import { certificateQuotesRoutes } from './certificate-quotes/route.ts';
import { certificatesRoutes } from './certificates/route.ts';
import { countiesRoutes } from './counties/route.ts';
import { eventsRoutes } from './events/route.ts';
import { holdersRoutes } from './holders/route.ts';
import { landsRoutes } from './lands-available/route.ts';
import { portfolioCalendarRoutes } from './portfolios/calendar-route.ts';
import { portfolioReadingRoutes } from './portfolios/reading-route.ts';
import { portfoliosRoutes } from './portfolios/route.ts';
import { sourcesRoutes } from './sources/route.ts';
import { savedSearchesRoutes } from './saved-searches/route.ts';
import { webhookEndpointsRoutes } from './webhook-endpoints/route.ts';
import { webhookEndpointWriteRoutes } from './webhook-endpoints/write-route.ts';

/**
 * The one /api/v1 scope. Its hooks (authenticate, rate-limit, charge) wrap every
 * route registered here and nothing outside it (/healthz, /docs, openapi.json).
 */
export function v1Routes(deps: ApiDeps): FastifyPluginAsyncZod {
  return async (v1) => {
    registerAccess(v1, v1.access);
    // Every route must declare its query parameters: the validator refuses unknown ones only
    // where there is a schema, and a route without one would silently accept typos.
    v1.addHook('onRoute', (route) => {
      if (!route.schema?.querystring) throw new Error(`route ${String(route.method)} ${route.url} has no querystring schema`);
    });
    await v1.register(countiesRoutes(deps));
    await v1.register(certificatesRoutes(deps));
    await v1.register(salesRoutes(deps));
    await v1.register(holdersRoutes(deps));
    await v1.register(landsRoutes(deps));
    await v1.register(sourcesRoutes(deps));
    await v1.register(bidRatesRoutes(deps));
    await v1.register(usageRoute(v1.access));
    // Per-certificate quote, timeline and deed estimate.
    await v1.register(certificateQuotesRoutes(deps));
    await v1.register(holderGroupsRoute(deps));
    // Redemption curves and the expected yield of each bid rate.
    await v1.register(redemptionRoutes(deps));
    // The change feed.
    await v1.register(eventsRoutes(deps));
    // The client's webhook endpoints and deliveries.
    await v1.register(webhookEndpointsRoutes(deps));
    // Writable customer resources (services/api/writes, docs/writes.md).
    await v1.register(webhookEndpointWriteRoutes(deps));
    await v1.register(savedSearchesRoutes(deps));
    await v1.register(portfoliosRoutes(deps));
    // A client's portfolios as of a day: positions and summary.
    await v1.register(portfolioReadingRoutes(deps));
    // Their deadlines as a calendar, and the secret address calendar apps subscribe to.
    await v1.register(portfolioCalendarRoutes(deps));
    // Snapshots and daily deltas as files (services/bulk, docs/bulk-files.md).
    await v1.register(bulkRoutes(deps));
  };
}
