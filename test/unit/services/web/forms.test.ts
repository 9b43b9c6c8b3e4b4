import { describe, expect, it } from 'vitest';
import {
  CheckoutForm,
  fieldErrors,
  KeyForm,
  NewPasswordForm,
  SignInForm,
  SignInQuery,
  SignUpForm,
  VerifyForm,
} from '../../../../services/web/forms.ts';
import { navFor } from '../../../../services/web/nav.ts';

const errorsOf = (result: { success: boolean; error?: import('zod').ZodError }) => (result.success ? {} : fieldErrors(result.error!));

describe('account page forms', () => {
  it('sign-up: an address is trimmed and lower-cased, an organisation trimmed', () => {
    // No password at sign-up (the confirmation link's holder chooses it): one posted is dropped.
    expect(
      SignUpForm.parse({ email: '  Ana@Example.COM ', password: 'fifteen chars!!', organisation: ' Acme Liens ', _csrf: 'x' }),
    ).toEqual({
      email: 'ana@example.com',
      organisation: 'Acme Liens',
    });
  });

  it('sign-up: each field says what is wrong with it, in words for a person', () => {
    expect(errorsOf(SignUpForm.safeParse({}))).toEqual({
      email: 'Enter your email address.',
      organisation: "Enter your organisation's name.",
    });
    expect(errorsOf(SignUpForm.safeParse({ email: 'nope', organisation: 'a\u0007b' }))).toEqual({
      email: 'Enter an email address such as name@example.com.',
      organisation: 'Use letters, digits, spaces and punctuation only.',
    });
    // A field sent twice (an array from the form parser) is refused, not turned into a string.
    expect(errorsOf(SignUpForm.safeParse({ email: ['a@b.co', 'c@d.co'], organisation: 'x'.repeat(101) }))).toEqual({
      email: 'Enter your email address.',
      organisation: 'Use at most 100 characters.',
    });
  });

  it('confirming an address takes the password its confirmer chooses, under the new-password rules', () => {
    const token = 'A'.repeat(43);
    expect(VerifyForm.safeParse({ token, password: 'a long new passphrase' }).success).toBe(true);
    expect(errorsOf(VerifyForm.safeParse({ token }))).toEqual({ password: 'Enter a password.' });
    expect(errorsOf(VerifyForm.safeParse({ token, password: 'fourteen chars' }))).toEqual({
      password: 'Use at least 15 characters. A few unrelated words make a good password.',
    });
    expect(errorsOf(VerifyForm.safeParse({ token, password: 'x'.repeat(257) }))).toEqual({ password: 'Use at most 256 characters.' });
  });

  it('sign-in checks presence only, so a password set under older rules still signs in', () => {
    expect(SignInForm.safeParse({ email: 'a@b.co', password: 'short' }).success).toBe(true);
    expect(errorsOf(SignInForm.safeParse({ email: 'a@b.co', password: '' }))).toEqual({ password: 'Enter your password.' });
  });

  it('a reset link token is 43 base64url characters; anything else is an incomplete link', () => {
    const token = 'A'.repeat(43);
    expect(NewPasswordForm.safeParse({ token, password: 'a long new passphrase' }).success).toBe(true);
    expect(errorsOf(NewPasswordForm.safeParse({ token: `${token}=`, password: 'a long new passphrase' }))).toEqual({
      token: 'This link is not complete. Copy the whole link from the mail.',
    });
  });

  it('a key needs a name and a kind of live or test', () => {
    expect(KeyForm.parse({ name: ' feed ', env: 'test' })).toEqual({ name: 'feed', env: 'test' });
    expect(errorsOf(KeyForm.safeParse({ name: '', env: 'prod' }))).toEqual({
      name: 'Give the key a name, such as the app that will use it.',
      env: 'Choose live or test.',
    });
  });

  it('a checkout buys a self-serve plan or a pack, never the trial or Enterprise', () => {
    const order = 'ord_AAAAAAAAAAAAAAAA';
    const ok = (item: string) => CheckoutForm.safeParse({ item, order }).success;
    expect(['plan:developer', 'plan:mcp_starter', 'pack:starter', 'pack:power'].map(ok)).toEqual([true, true, true, true]);
    expect(['plan:free_trial', 'plan:enterprise', 'pack:huge', 'developer', ''].map(ok)).toEqual([false, false, false, false, false]);
    // The form carries the order id its page was given: the same form posted again is the same order.
    for (const bad of [undefined, '', 'ord_short', `${order}A`, 'key_AAAAAAAAAAAAAAAA'])
      expect(CheckoutForm.safeParse({ item: 'pack:starter', order: bad }).success, String(bad)).toBe(false);
  });

  it('sign-in returns only to a page of the account site', () => {
    const next = (value: string) => SignInQuery.parse({ next: value }).next;
    expect(next('/account/keys')).toBe('/account/keys');
    expect(next('/account')).toBe('/account');
    for (const bad of [
      'https://evil.example/account',
      '//evil.example',
      '/account//evil.example',
      '/docs',
      '/account/keys?x=1',
      '/account\\evil',
    ])
      expect(next(bad), bad).toBeUndefined();
  });
});

describe('navigation', () => {
  it('marks the entry of the page, a page below an entry counting as it (not below the overview: every page is)', () => {
    const current = (path: string) => navFor(path).find((n) => n.current)?.label ?? null;
    expect(current('/account')).toBe('Overview');
    expect(current('/account/keys')).toBe('Keys');
    expect(current('/account/keys/key_abc/revoke')).toBe('Keys');
    expect(current('/account/billing/checkout')).toBe('Plans and packs');
    expect(current('/account/signout')).toBeNull();
    expect(current('/account/webhooks/whe_abc')).toBe('Webhooks');
    expect(current('/account/saved-searches/ss_abc/delete')).toBe('Saved searches');
    expect(current('/account/portfolios/pf_abc/upload')).toBe('Portfolios');
    expect(current('/account/explore/certificates/cert_00000000000000000000')).toBe('Explore');
    expect(navFor('/account').map((n) => n.href)).toEqual([
      '/account',
      '/account/explore',
      '/account/keys',
      '/account/saved-searches',
      '/account/portfolios',
      '/account/webhooks',
      '/account/billing',
    ]);
  });
});
