import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';

/**
 * The one description of the environment. The server, the worker and the CLI all
 * parse it once at start-up and hand values down as arguments; nothing else reads
 * process.env.
 */
const port = z.coerce.number().int().min(1).max(65535);

export const EnvSchema = z.object({
  /**
   * production unless told otherwise: a deployment that forgets the variable must not run with
   * test-mode billing, cookies without Secure and loopback webhooks. `npm start` chooses
   * development (package.json), vitest sets test, and a process in development says so first.
   */
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  PORT: port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * One node's URL, or several comma-separated (the nodes of a cluster): the client spreads requests
   * over them and, when one stops answering, sends its requests to the others, so a cluster that loses a node keeps answering.
   */
  OPENSEARCH_URL: z
    .string()
    .transform((list) => list.split(',').map((u) => u.trim()))
    .pipe(z.array(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL, or several separated by commas' })).min(1))
    .optional(),
  OPENSEARCH_PORT: port.default(9200),
  OPENSEARCH_REPLICAS: z.coerce.number().int().min(0).max(5).default(0),
  /**
   * Primary shards of an index created from now on (unset: the mapping file's, 1). A cluster spreads
   * them over its nodes; `taxcert reindex` moves an existing dataset to this count.
   */
  OPENSEARCH_SHARDS: z.coerce.number().int().min(1).max(64).optional(),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).default('redis://127.0.0.1:6379'),
  /**
   * Default: ./data/<INDEX_PREFIX>.db, so each stack of a checkout has its own: two stacks writing one
   * file reported each other's certificate counts. A database also remembers its prefix and refuses another.
   */
  DATABASE_PATH: z.string().min(1).optional(),
  /**
   * postgres://... : the control plane lives in that PostgreSQL database, shared by every API
   * host and worker (a SQLite file lives on one host); DATABASE_PATH is then unused. Unset: SQLite at DATABASE_PATH.
   */
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  /**
   * Where bulk files (snapshots and deltas, services/bulk) are stored. Default: a bulk folder beside
   * the database. Several API hosts point it at one shared volume (docs/bulk-files.md).
   */
  BULK_DIR: z.string().min(1).optional(),
  /**
   * How long the worker waits after an ingest changed a county and tax year before rebuilding its
   * bulk files; every change within the window shares one rebuild, so a busy day rebuilds each at
   * most once per window.
   */
  BULK_REBUILD_DEBOUNCE_MS: z.coerce.number().int().min(100).max(86_400_000).default(180_000),
  INDEX_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,39}$/, 'must be lowercase letters, digits, _ or -, starting with a letter')
    .default('taxcert'),
  KEY_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9]{2,16}$/, 'must be 2-16 letters or digits')
    .default('txc'),
  KEY_HASH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PARCEL_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://parcels.taxcert.dev/api/v1/parcels'),
  // Files a worker holds at once; all but two may wait for one shared refresh (load-resources.ts).
  // 24, not 12: a busy worker refreshed about half as often (9-12 refreshes against 15-18 for
  // 88 files) and the engine merged no small segments (0.1M documents merged at 12), for the same
  // RSS.
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(24),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // No request may be held open for ever (a client trickling bytes would hold a socket). The whole request (headers and body) must
  // arrive within REQUEST_TIMEOUT_MS, its headers within HEADERS_TIMEOUT_MS (capped at the former);
  // a socket with no traffic either way for CONNECTION_TIMEOUT_MS is closed.
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /**
   * The per-minute limit's window (spec 8.2: a plan's requests per minute). Always a minute
   * outside NODE_ENV=test; tests shorten it to see a full window recover without waiting a minute.
   */
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).max(60_000).default(60_000),
  /** Requests one client may have in flight at once in one API process; one more is a 429. */
  CLIENT_MAX_CONCURRENT: z.coerce.number().int().min(1).max(10_000).default(16),
  /**
   * Analytic requests (GET /analytics/*, their MCP tools) one client may have in flight at once
   * in one API process; one more is a 429 at once. Each reads a whole scope of certificates, so
   * two keep one client's share of the engine's search threads small on a 2-core node.
   */
  CLIENT_MAX_ANALYTICS: z.coerce.number().int().min(1).max(1_000).default(2),
  /**
   * The most certificates one analytic call may read (routes/analytics/scope-cap.ts); a wider
   * scope is a 400 asking to narrow it. Sized from bench:fairness so the costliest accepted
   * call stays under 500 ms of engine CPU: holder groups read each certificate several times
   * (scan, median scan, page details), bid rates once.
   */
  HOLDER_GROUPS_MAX_SCOPE: z.coerce.number().int().min(1).max(100_000_000).default(100_000),
  BID_RATES_MAX_SCOPE: z.coerce.number().int().min(1).max(100_000_000).default(2_000_000),
  /** The redemption curve and expected yield read each certificate once, as bid rates do. */
  REDEMPTION_MAX_SCOPE: z.coerce.number().int().min(1).max(100_000_000).default(2_000_000),
  /**
   * The most certificates of a followed holder group one portfolio read takes: the read holds the
   * group's figures in the API process (about 83 MB at 100,000), so a group grown past it is
   * refused (403 limit_reached) until the portfolio follows a smaller one, and a write never
   * follows a group larger than this or the plan's positions. The default is the largest plan's.
   */
  PORTFOLIO_GROUP_MAX: z.coerce.number().int().min(1).max(1_000_000).default(100_000),
  // The change feed: events are kept this many days, then pruned by the worker's
  // scheduled job; a cursor older than that answers 410 cursor_expired.
  EVENTS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(90),
  /** How often the worker prunes events older than EVENTS_RETENTION_DAYS. */
  EVENTS_PRUNE_EVERY_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  /**
   * How often the worker checks every sale's status against Florida's calendar day, recording
   * certificate_sale.status_changed on the day a sale starts or ends.
   */
  SALE_STATUS_EVERY_MS: z.coerce.number().int().min(1000).max(86_400_000).default(300_000),
  /**
   * Largest /api/mcp body: one JSON-RPC message; a bigger one is a 413. Unbounded, a body of 100,000
   * unknown argument names held the event loop for about 700 ms.
   */
  MCP_MAX_BODY_BYTES: z.coerce.number().int().min(1024).max(16_777_216).default(65_536),
  /**
   * Browser origins allowed to call /api/mcp (against DNS rebinding: mcp/origin.ts), comma-separated, such as
   * https://app.example.com. Empty (the default): any request carrying an Origin is refused.
   */
  MCP_ALLOWED_ORIGINS: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((o) => o.trim())
        .filter((o) => o !== ''),
    )
    .pipe(z.array(z.string().refine(isOrigin, 'must be a comma-separated list of origins such as https://app.example.com')))
    // Compared as browsers serialize them: lower-case host, no default port.
    .transform((list) => list.map((o) => new URL(o).origin)),
  /**
   * The proxies in front of the API (load balancers), comma-separated addresses or CIDR ranges
   * such as 10.0.0.0/8 or 2001:db8::/32. A request from one of them takes its client's address
   * from X-Forwarded-For (request.ip: the account page's throttles count by it); from anywhere
   * else X-Forwarded-For is ignored. Empty (the default): the socket's address, no proxy trusted.
   */
  TRUST_PROXY: z
    .string()
    .default('')
    .transform((list) =>
      list
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p !== ''),
    )
    .pipe(
      z.array(
        z.string().refine((entry) => {
          const [address = '', bits, ...rest] = entry.split('/');
          const family = isIP(address);
          const maxBits = family === 4 ? 32 : 128;
          return family !== 0 && rest.length === 0 && (bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits));
        }, 'must be a comma-separated list of addresses or CIDR ranges such as 10.0.0.0/8'),
      ),
    ),
  // The account page.
  /**
   * Where the account page is reached from outside, such as https://api.example.com: the links
   * mailed to users start with it (never with a request's Host header, which a client chooses).
   * Default: http://HOST:PORT; required when NODE_ENV=production.
   */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** SMTP server for the account page's mail, e.g. smtp://user:pass@mail.example.com:587. Unset: mail goes to MAIL_OUTBOX_DIR (not in production). */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).max(200).default('Tax certificate data <no-reply@taxcert.invalid>'),
  /** Where mail is written instead of sent when SMTP_URL is unset. Default: an outbox folder beside the database. */
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  /**
   * Who takes payment for plan changes and packs: test-mode completes at once without payment
   * (the default outside production, and refused in production); none shows prices only.
   */
  BILLING_PROVIDER: z.enum(['test-mode', 'none']).optional(),
  /**
   * Encrypts the webhook signing secrets at rest (a copy of the database alone cannot sign): at least 32 characters, from which
   * the AES-256-GCM key is derived. Required in production; elsewhere generated once beside the
   * database (webhook-secret-key), like KEY_HASH_SECRET. Changing it makes every stored secret
   * unreadable: rotate each endpoint's secret afterwards.
   */
  WEBHOOK_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Deliveries one worker process sends at once (its own setting, beside WORKER_CONCURRENCY). A
   * delivery mostly waits on the network, so many at once cost little CPU and memory.
   */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(128),
  /**
   * Requests one worker process has open at most to an endpoint whose answers take a second or
   * more (any other may use half of WEBHOOK_CONCURRENCY); a delivery beyond it waits in the queue
   * instead of holding a slot, so one slow receiver cannot hold up the rest.
   */
  WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(16),
  /**
   * Requests one worker process has open at most to one client's slow endpoints together (all
   * its endpoints: half of WEBHOOK_CONCURRENCY): a client with every endpoint hung (a receiver
   * that never answers) holds this many slots and no more, so other clients' deliveries go on.
   */
  WEBHOOK_CLIENT_MAX_IN_FLIGHT: z.coerce.number().int().min(1).max(1000).default(16),
  /**
   * Replays a client may ask for in a minute (a bucket that refills continuously; one replay,
   * of one event or a time range, spends one); past it the account page and the CLI refuse
   * with when the next one is possible.
   */
  WEBHOOK_REPLAYS_PER_MINUTE: z.coerce.number().int().min(1).max(10_000).default(30),
  /** A receiver must answer 2xx within this long; anything slower is a failed attempt. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /**
   * The waits before each retry, comma-separated durations (ms, s, m, h, d); one attempt plus one
   * retry per entry. Each wait gets +-10% jitter. Tests and benchmarks set a short schedule.
   */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5s,5m,30m,2h,5h,10h,10h')
    .transform((list, ctx) => {
      const waits = list.split(',').map((d) => parseDuration(d.trim()));
      if (waits.length === 0 || waits.length > 20 || waits.some((w) => w === null)) {
        ctx.addIssue({ code: 'custom', message: 'must be 1 to 20 comma-separated durations such as 5s,5m,30m,2h' });
        return z.NEVER;
      }
      return waits as number[];
    }),
  /** An endpoint whose every attempt has failed for this long is disabled (a duration: 3d). */
  WEBHOOK_DISABLE_AFTER: z
    .string()
    .default('3d')
    .transform((text, ctx) => {
      const ms = parseDuration(text.trim());
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: 'must be a duration such as 3d, 12h or 90s' });
        return z.NEVER;
      }
      return ms;
    }),
  /** How often the worker looks for new events to fan out when it found none last time. */
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(250),
});

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "250ms", "5s", "30m", "2h", "3d" in milliseconds; null when it is not one. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(text);
  if (!match) return null;
  const ms = Math.round(Number(match[1]) * DURATION_UNITS[match[2]!]!);
  return Number.isSafeInteger(ms) && ms >= 0 ? ms : null;
}

/** The host a local browser reaches the server on: a wildcard listen address means this machine. */
function localHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/** scheme://host[:port] and nothing more, as a browser sends it in Origin. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value);
    const bare = url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password && !value.endsWith('/');
    return (url.protocol === 'http:' || url.protocol === 'https:') && bare;
  } catch {
    return false;
  }
}

export type Env = z.infer<typeof EnvSchema>;

export interface Config
  extends Omit<
    Env,
    | 'KEY_HASH_SECRET'
    | 'OPENSEARCH_URL'
    | 'DATABASE_PATH'
    | 'PUBLIC_URL'
    | 'MAIL_OUTBOX_DIR'
    | 'BILLING_PROVIDER'
    | 'WEBHOOK_SECRET_KEY'
    | 'BULK_DIR'
  > {
  /** One node's URL, or a cluster's nodes comma-separated (services/engine/client.ts opensearchNodes). */
  OPENSEARCH_URL: string;
  /** Absolute path of the SQLite control-plane database. */
  DATABASE_PATH: string;
  /** True when OPENSEARCH_URL was not given and the local node under scripts/ is meant. */
  OPENSEARCH_LOCAL: boolean;
  /** True when LOG_LEVEL was given: then logs are full and structured even on a terminal. */
  LOG_LEVEL_SET: boolean;
  KEY_HASH_SECRET: string;
  /** No trailing slash. */
  PUBLIC_URL: string;
  /** True when PUBLIC_URL was given (the account page requires it in production). */
  PUBLIC_URL_SET: boolean;
  /** Absolute path. */
  MAIL_OUTBOX_DIR: string;
  /** Absolute path of the bulk files' folder. */
  BULK_DIR: string;
  BILLING_PROVIDER: 'test-mode' | 'none';
  WEBHOOK_SECRET_KEY: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment; throws ConfigError with one line naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`${name}: ${issue?.message ?? 'invalid'}${shownValue(name, env[name])}`);
  }
  const e = parsed.data;
  const databasePath = resolve(e.DATABASE_PATH ?? `./data/${e.INDEX_PREFIX}.db`);
  if (e.NODE_ENV !== 'test' && e.RATE_LIMIT_WINDOW_MS !== 60_000)
    throw new ConfigError('RATE_LIMIT_WINDOW_MS: the per-minute limit counts a minute; another window is for tests only (NODE_ENV=test)');
  if (e.NODE_ENV === 'production' && e.BILLING_PROVIDER === 'test-mode')
    throw new ConfigError('BILLING_PROVIDER: test-mode gives plans and packs away without payment; not allowed when NODE_ENV=production');
  return {
    ...e,
    DATABASE_PATH: databasePath,
    OPENSEARCH_LOCAL: e.OPENSEARCH_URL === undefined,
    // npm start keeps a terminal quiet unless a level was asked for (it printed about 1,500 lines: console.ts).
    LOG_LEVEL_SET: env.LOG_LEVEL !== undefined,
    OPENSEARCH_URL: e.OPENSEARCH_URL?.join(',') ?? `http://127.0.0.1:${e.OPENSEARCH_PORT}`,
    PUBLIC_URL: (e.PUBLIC_URL ?? `http://${localHost(e.HOST)}:${e.PORT}`).replace(/\/+$/, ''),
    PUBLIC_URL_SET: e.PUBLIC_URL !== undefined,
    MAIL_OUTBOX_DIR: resolve(e.MAIL_OUTBOX_DIR ?? join(dirname(databasePath), 'outbox')),
    BULK_DIR: resolve(e.BULK_DIR ?? join(dirname(databasePath), 'bulk')),
    BILLING_PROVIDER: e.BILLING_PROVIDER ?? (e.NODE_ENV === 'production' ? 'none' : 'test-mode'),
    KEY_HASH_SECRET: e.KEY_HASH_SECRET ?? localSecret('KEY_HASH_SECRET', 'key-hash-secret', e.NODE_ENV, databasePath),
    WEBHOOK_SECRET_KEY: e.WEBHOOK_SECRET_KEY ?? localSecret('WEBHOOK_SECRET_KEY', WEBHOOK_KEY_FILE, e.NODE_ENV, databasePath),
  };
}

/**
 * A variable named for a secret, and a URL that could carry one (a password in its user part or
 * a token in its query), is never echoed: a config error goes to terminals, CI logs and process
 * supervisors, where nobody expects a secret. Decided by the name, so a variable added to the schema later is
 * covered without a list to keep up; a URL with nothing secret in it is still shown to help.
 */
const SECRET_NAME = /SECRET|PASSWORD|PASSWD|TOKEN|CREDENTIAL|(^|_)KEY$/;
const URL_NAME = /_URL$|_DSN$/;

function shownValue(name: string, value: string | undefined): string {
  if (value === undefined) return '';
  if (SECRET_NAME.test(name)) return ' (value not shown: it is a secret)';
  if (URL_NAME.test(name) && /[@?#]|%40/.test(value)) return ' (value not shown: it may hold a password)';
  return ` (got ${JSON.stringify(value)})`;
}

/** The file beside the database that keeps the development WEBHOOK_SECRET_KEY. */
export const WEBHOOK_KEY_FILE = 'webhook-secret-key';

/**
 * Outside production a missing secret is generated once and kept beside the
 * database, so keys hashed yesterday still verify today (and webhook secrets
 * encrypted yesterday still decrypt). In production a missing secret is an error:
 * a generated one would silently invalidate every key on the next host.
 */
function localSecret(name: string, fileName: string, nodeEnv: Env['NODE_ENV'], databasePath: string): string {
  if (nodeEnv === 'production') throw new ConfigError(`${name}: required when NODE_ENV=production`);
  const file = join(dirname(databasePath), fileName);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dirname(file), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    // Another process (CLI beside the server) won the race: use its secret.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
}

/** The environment with some variables set: for a config with overrides (a CLI flag) or a child process's env. */
export function envWith(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  return { ...process.env, ...overrides };
}

/**
 * Fills the environment with variables found elsewhere before loadConfig parses it: the CLI's
 * operator commands take those of the stack `npm start` recorded. `find` is shown the environment
 * as it stands and returns what to set; it returns only variables the environment leaves unset.
 */
export async function fillEnvironment(find: (env: NodeJS.ProcessEnv) => Promise<Record<string, string>>): Promise<void> {
  Object.assign(process.env, await find(process.env));
}

/**
 * Whether an error that ends the CLI prints its stack: read without loadConfig,
 * because the error being reported may be the configuration's own.
 */
export function wantsErrorStacks(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.LOG_LEVEL === 'debug';
}
