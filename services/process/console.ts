import { relative } from 'node:path';
import { DEMO_CLIENT_ID } from '../control/billing/demo-key.ts';
import { redactUrl } from '../logger.ts';
import type { Mail } from '../web/mail/mailer.ts';

/**
 * What `npm start` prints on a terminal: it printed about 1,500 lines (a
 * 22-line entry per ingested file, 12 lines per /healthz request) with the progress bar glued
 * onto log lines and onto the URL banner. On a terminal, unless LOG_LEVEL is set: warnings only
 * from the logger, one progress bar for the demo load, the banner, then one line per request.
 * Without a terminal, or with LOG_LEVEL set, the full structured logs stay.
 */

/**
 * The first line of a server, worker or `npm start` in development: production is the default, so
 * a process that gives plans away (test-mode billing), sends cookies without Secure and delivers
 * webhooks to loopback addresses was asked to, and says so before anything else.
 */
export function developmentLine(nodeEnv: string): string | null {
  if (nodeEnv !== 'development') return null;
  return 'taxcert: NODE_ENV=development (test-mode billing, cookies without Secure, loopback webhook receivers); unset it or set NODE_ENV=production for a deployment';
}

/** Writes developmentLine to stderr, when there is one; call it right after loadConfig. */
export function announceDevelopment(nodeEnv: string): void {
  const line = developmentLine(nodeEnv);
  if (line !== null) process.stderr.write(`${line}\n`);
}

export interface ConsoleFacts {
  /** stderr is a terminal. */
  isTTY: boolean;
  /** LOG_LEVEL was given. */
  logLevelSet: boolean;
  nodeEnv: string;
}

export function isQuietConsole(facts: ConsoleFacts): boolean {
  return facts.isTTY && !facts.logLevelSet && facts.nodeEnv !== 'production';
}

/**
 * The lines printed once the stack is ready; a demo API key is shown when one exists, and the
 * account page with the demo client's sign-in when there is one.
 */
export function bannerLines(url: string, demoKey?: string, demoSignIn?: { email: string; password: string }): string[] {
  return [
    '',
    `Tax certificate data service: ${url}  (health: ${url}/healthz, docs: ${url}/docs)`,
    ...(demoKey
      ? [
          `Demo API key: ${demoKey}  (Enterprise plan, kept in the data folder; never in the logs)`,
          `  curl -H "Authorization: Bearer ${demoKey}" "${url}/api/v1/certificates/search?county=miami-dade&limit=2"`,
          'Webhooks: this stack delivers them (loopback receivers are allowed outside production). In another terminal:',
          `  npx taxcert webhooks create --client ${DEMO_CLIENT_ID} --url http://127.0.0.1:4000/webhooks`,
          '  (prints the whsec_ signing secret once; `npx taxcert webhooks deliveries <id>` shows every attempt)',
        ]
      : []),
    ...(demoSignIn
      ? [
          `Account page: ${url}/account  (sign up, or sign in as the demo client)`,
          `Demo sign-in: ${demoSignIn.email}  password ${demoSignIn.password}  (kept in the data folder; never in the logs)`,
        ]
      : []),
    'Ctrl-C stops everything.',
    '',
  ];
}

/**
 * A mail the account page wrote to the outbox instead of sending (no SMTP_URL): its link on the
 * terminal, so a sign-up on `npm start` can be confirmed without a mail server.
 */
export function outboxLine(mail: Mail, file: string): string {
  return `Mail to ${mail.to} (not sent: no SMTP_URL; saved as ${relative(process.cwd(), file)}). ${mail.link.label}: ${mail.link.url}`;
}

export interface RequestFacts {
  at: Date;
  method: string;
  url: string;
  statusCode: number;
  ms: number;
}

/**
 * One request in one line: "14:03:07 GET /healthz 200 2ms". The URL is masked as in the JSON log:
 * otherwise a key sent as ?api_key= stays readable in the terminal and its scrollback.
 */
export function requestLine(r: RequestFacts): string {
  const time = r.at.toISOString().slice(11, 19);
  return `${time} ${r.method} ${redactUrl(r.url)} ${r.statusCode} ${Math.round(r.ms)}ms`;
}
