import type { FastifyInstance } from 'fastify';
import type { PageContext } from '../context.ts';
import { billingPage } from './billing.ts';
import { explorePage } from './explore.ts';
import { keysPage } from './keys.ts';
import { overviewPage } from './overview.ts';
import { portfolioCalendarPage } from './portfolio-calendar.ts';
import { portfolioUploadPage } from './portfolio-upload.ts';
import { portfoliosPage } from './portfolios.ts';
import { resetPage } from './reset.ts';
import { savedSearchesPage } from './saved-searches.ts';
import { signinPage } from './signin.ts';
import { signoutPage } from './signout.ts';
import { signupPage } from './signup.ts';
import { verifyPage } from './verify.ts';
import { webhooksPage } from './webhooks.ts';

/**
 * Every page of /account, each a module registering its routes on the account scope (which
 * gives it the session, the CSRF check on every form post, the headers and the error pages).
 * A new page adds one line here and one in nav.ts.
 */
export const PAGES: readonly ((scope: FastifyInstance, ctx: PageContext) => void)[] = [
  signupPage,
  signinPage,
  signoutPage,
  verifyPage,
  resetPage,
  overviewPage,
  keysPage,
  explorePage,
  savedSearchesPage,
  portfoliosPage,
  portfolioUploadPage,
  portfolioCalendarPage,
  webhooksPage,
  billingPage,
];
