import type { Mail } from './mailer.ts';

/**
 * The account page's mail, in plain words and plain text (no HTML: nothing to render, track or
 * spoof). Each carries one link; the token in it is the only copy outside the mail.
 */

export function verifyMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Confirm your email address',
    text: [
      'Welcome to the Florida tax certificate data service.',
      '',
      'Open this link to confirm your email address and choose your password. Then you can create API keys:',
      '',
      link,
      '',
      'The link works once, for 24 hours. If you did not sign up, ignore this mail: nothing happens without the link.',
    ].join('\n'),
    link: { label: 'Confirm your email', url: link },
  };
}

export function resetMail(to: string, link: string): Mail {
  return {
    to,
    subject: 'Reset your password',
    text: [
      'Someone asked to reset the password of your account on the Florida tax certificate data service.',
      '',
      'Open this link to choose a new password:',
      '',
      link,
      '',
      'The link works once, for 30 minutes. If you did not ask, ignore this mail: your password stays as it is.',
    ].join('\n'),
    link: { label: 'Reset your password', url: link },
  };
}

/** Sent instead of a second account, so the sign-up page says the same thing for a new and a known address. */
export function alreadyRegisteredMail(to: string, signInLink: string, resetLink: string): Mail {
  return {
    to,
    subject: 'You already have an account',
    text: [
      'Someone tried to sign up with this email address on the Florida tax certificate data service, but it already has an account.',
      '',
      `Sign in: ${signInLink}`,
      `Forgot your password? ${resetLink}`,
      '',
      'If this was not you, ignore this mail: nothing has changed.',
    ].join('\n'),
    link: { label: 'Sign in', url: signInLink },
  };
}
