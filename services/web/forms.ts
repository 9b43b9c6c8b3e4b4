import { z } from 'zod';
import { KEY_ENVS } from '../control/billing/api-keys.ts';
import { EVENT_TYPES } from '../control/feed/events.ts';
import { ORDER_ID } from '../control/billing/orders.ts';
import { PACK_NAMES } from '../control/billing/packs.ts';

/**
 * Every form of the account page as one zod schema: it validates the posted fields and gives
 * the message shown beside a field when the form is shown again (never a 500). Messages are
 * written for the person filling in the form.
 */

/** Passwords: NIST SP 800-63B (rev. 4) for a password that is the only factor: at least 15 characters, any characters, up to 256. */
export const PASSWORD_MIN = 15;
export const PASSWORD_MAX = 256;

const text = (field: string) => z.string({ error: `Enter ${field}.` });

const email = text('your email address')
  .trim()
  .toLowerCase()
  .min(1, 'Enter your email address.')
  .max(254, 'An email address has at most 254 characters.')
  .pipe(z.email('Enter an email address such as name@example.com.'));

const newPassword = text('a password')
  .min(1, 'Enter a password.')
  .min(PASSWORD_MIN, `Use at least ${PASSWORD_MIN} characters. A few unrelated words make a good password.`)
  .max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`);

/** Sign-in checks only presence and size: a password set under older rules must still work. */
const currentPassword = text('your password').min(1, 'Enter your password.').max(PASSWORD_MAX, 'Enter your password.');

// Control characters would print as nothing (or move text) in a listing or a mail.
const printable = (value: string) => !/[\p{Cc}\p{Zl}\p{Zp}]/u.test(value);

const organisation = text("your organisation's name")
  .trim()
  .min(1, "Enter your organisation's name.")
  .max(100, 'Use at most 100 characters.')
  .refine(printable, 'Use letters, digits, spaces and punctuation only.');

const token = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'This link is not complete. Copy the whole link from the mail.');

/** No password at sign-up: the confirmation link's holder chooses it, so nobody else's stays in force. */
export const SignUpForm = z.object({ email, organisation });
export const SignInForm = z.object({ email, password: currentPassword });
export const ResetRequestForm = z.object({ email });
export const NewPasswordForm = z.object({ token, password: newPassword });
export const VerifyForm = z.object({ token, password: newPassword });
export const TokenQuery = z.object({ token: token.optional() });

export const KeyForm = z.object({
  name: text('a name for the key')
    .trim()
    .min(1, 'Give the key a name, such as the app that will use it.')
    .max(60, 'Use at most 60 characters.')
    .refine(printable, 'Use letters, digits, spaces and punctuation only.'),
  env: z.enum(KEY_ENVS as [string, ...string[]], { error: 'Choose live or test.' }),
});

export const KeyIdParams = z.object({ id: z.string().regex(/^key_[A-Za-z0-9_-]{12}$/) });

/**
 * A webhook endpoint as the form posts it. Checkboxes post nothing, one value or several; the
 * counties box is a comma list as a person types it. The URL's rules (scheme, no credentials,
 * allowed addresses) and the county names are checked by the control plane's own
 * checkEndpointInput, the CLI's check, against the registry (pages/webhooks.ts).
 */
const checkboxes = z.preprocess((v) => (v === undefined ? [] : [v].flat()), z.array(z.string()));
export const WebhookForm = z.object({
  url: text('the address to send events to')
    .trim()
    .min(1, 'Enter the address to send events to, such as https://example.com/webhooks.')
    .max(2048, 'Use an address of at most 2048 characters.')
    .refine((u) => /^https?:\/\//i.test(u), 'Enter an address that starts with https:// or http://.'),
  types: checkboxes.pipe(
    z.array(z.enum(EVENT_TYPES, { error: 'Choose event types from the list.' })).min(1, 'Choose at least one event type.'),
  ),
  counties: z
    .string({ error: 'Enter county names separated by commas, or leave the box empty.' })
    .max(2000, 'Use at most 2000 characters.')
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((c) => c.trim())
        .filter((c) => c !== ''),
    ),
  // None ticked: every saved search of the client, now and later.
  saved_searches: checkboxes,
});

export const WebhookIdParams = z.object({ id: z.string().regex(/^whe_[A-Za-z0-9_-]{16}$/) });
export const SavedSearchIdParams = z.object({ id: z.string().regex(/^ss_[A-Za-z0-9_-]{16}$/) });
export const ReplayForm = z.object({ event: z.string().regex(/^evt_[0-9]{1,15}$/, 'Choose a delivery to send again.') });

/** Plans a customer may choose here: Free Trial is only ever given at sign-up, Enterprise is a contract. */
export const SELF_SERVE_PLANS = ['developer', 'pro', 'growth', 'lead_feed', 'mcp_starter'] as const;

/** What a checkout buys, as one field (`plan:pro`, `pack:starter`) so one form and one address serve both. */
export const CheckoutItem = z.union([
  z.templateLiteral(['plan:', z.enum(SELF_SERVE_PLANS)]),
  z.templateLiteral(['pack:', z.enum(PACK_NAMES as [string, ...string[]])]),
]);
/** The posted checkout: what, and the order id its page was given (the same form posted again is the same order). */
export const CheckoutForm = z.object({ item: CheckoutItem, order: z.string().regex(ORDER_ID) });

/** Where sign-in returns to: a page of this site under /account, never another host. */
export const NextPath = z
  .string()
  .regex(/^\/account(\/[A-Za-z0-9_/-]*)?$/)
  .refine((p) => !p.includes('//'));
export const SignInQuery = z.object({ next: NextPath.optional().catch(undefined) });

/** The first message per field, for showing beside it; with the values to put back (never a password). */
export type FieldErrors = Record<string, string>;

export function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? 'form');
    out[field] ??= issue.message;
  }
  return out;
}

/** The explorer's certificate page: the id in its path, as the API's ids are written. */
export const ExploreCertificateParams = z.object({ id: z.string().regex(/^cert_[0-9a-f]{20}$/) });

/** "Save this search": a name, and the search as the page's own query string (the API's parameter names). */
export const ExploreSaveForm = z.object({
  name: z.string({ error: 'Give the search a name.' }),
  search: z.string({ error: 'The search to save is missing: go back to the explorer and save it from there.' }).max(8000),
});

/** "Add to portfolio": which of the client's portfolios. */
export const ExplorePortfolioForm = z.object({
  portfolio: z.string({ error: 'Choose a portfolio.' }).regex(/^pf_[A-Za-z0-9_-]{16}$/, 'Choose a portfolio from the list.'),
});
