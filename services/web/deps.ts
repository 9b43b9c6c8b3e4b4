import type { ApiDeps } from '../api/deps.ts';
import type { PasswordHasher } from '../control/accounts/passwords.ts';
import type { BillingProvider } from './billing/provider.ts';
import type { OutboxListener } from './mail/mailer.ts';

/** What the API process needs beyond the API's own deps to serve the account page. */
export interface SiteDeps extends ApiDeps {
  /**
   * The account page's clock: sessions, mailed links, the trial's seven days and the overview's
   * month. Tests move it instead of waiting days or minutes. Default: the wall clock.
   */
  clock?: () => Date;
  /** Told about each mail written to the outbox instead of sent (npm start prints its link). */
  onOutbox?: OutboxListener;
  /** Replaces the provider BILLING_PROVIDER names: where a production payment processor plugs in. */
  billing?: BillingProvider | null;
  /** The password hasher; default argon2id at PASSWORD_COSTS. Tests wrap it to count the hashing an anonymous request causes. */
  passwords?: PasswordHasher;
}
