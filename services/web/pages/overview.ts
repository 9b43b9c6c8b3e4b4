import type { FastifyInstance } from 'fastify';
import type { PageContext } from '../context.ts';
import { overviewModel, readOverview } from '../overview.ts';
import { page } from '../render.ts';
import { requireUser, signedIn } from '../session.ts';

/** /account: the overview (services/web/overview.ts). */
export function overviewPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/', { preHandler: requireUser }, async (request, reply) =>
    page(request, reply, 'overview', { ...overviewModel(await readOverview(ctx, signedIn(request))) }),
  );
}
