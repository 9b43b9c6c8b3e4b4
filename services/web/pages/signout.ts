import type { FastifyInstance } from 'fastify';
import type { PageContext } from '../context.ts';
import { page } from '../render.ts';
import { endSession } from '../session.ts';

/** /account/signout: a page with the button (a link cannot sign anyone out: it takes a form with its CSRF token). */
export function signoutPage(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/signout', async (request, reply) => {
    if (!request.account) return reply.redirect('/account/signin', 303);
    return page(request, reply, 'signout', { title: 'Sign out' });
  });

  scope.post('/signout', async (request, reply) => {
    await endSession(ctx, request, reply);
    return reply.redirect('/account/signin?notice=signed-out', 303);
  });
}
