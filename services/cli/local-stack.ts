import { existsSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { isPidAlive } from '../pid-alive.ts';
import { opensearchAnswers } from '../process/local-opensearch.ts';
import { readRecord, STACK_FILE } from '../process/stack-record.ts';
import { CliError } from './output.ts';

/**
 * The operator commands of another terminal find the stack `npm start` recorded
 * (services/process/stack-record.ts) and fill the variables it records into their
 * environment, the way a .env file would: a variable that is set wins.
 */

/** `npm start`, the stack's own processes and the data generator find nothing to look up. */
const STACKLESS = new Set(['start', 'serve', 'worker', 'fixtures']);

export function usesLocalStack(command: string): boolean {
  return !STACKLESS.has(command);
}

/** A command that found no stack: it says what to start or set, and has created nothing. */
export class NoStackError extends CliError {
  override name = 'NoStackError';
  constructor(reason: string) {
    super(
      `no local stack found: ${reason}; start one with \`npm start\` in this checkout, or set OPENSEARCH_URL and DATABASE_PATH`,
      1,
      'no_stack',
    );
  }
}

/**
 * The variables a command takes from the recorded stack: those its environment leaves unset.
 * Nothing is looked up when OPENSEARCH_URL, DATABASE_PATH or DATABASE_URL is set (the operator said where);
 * otherwise a stack that is missing, stopped or not answering is a NoStackError.
 */
export async function stackVariables(env: NodeJS.ProcessEnv, file = resolve(STACK_FILE)): Promise<Record<string, string>> {
  if (env.OPENSEARCH_URL !== undefined || env.DATABASE_PATH !== undefined || env.DATABASE_URL !== undefined) return {};
  const shown = relative(process.cwd(), file);
  const record = readRecord(file);
  if (record === null) throw new NoStackError(`nothing recorded in ${shown}`);
  const { env: recorded } = record;
  if (env.INDEX_PREFIX !== undefined && env.INDEX_PREFIX !== recorded.INDEX_PREFIX)
    throw new NoStackError(`${shown} records the stack with INDEX_PREFIX=${recorded.INDEX_PREFIX}, not ${env.INDEX_PREFIX}`);
  const started = `npm start (pid ${record.pid}, started ${record.startedAt})`;
  if (!isPidAlive(record.pid)) throw new NoStackError(`${started} recorded in ${shown} is no longer running`);
  if (recorded.DATABASE_URL === undefined && !existsSync(recorded.DATABASE_PATH))
    throw new NoStackError(`the database of ${started}, ${recorded.DATABASE_PATH}, is gone`);
  if (!(await opensearchAnswers(recorded.OPENSEARCH_URL)))
    throw new NoStackError(`the OpenSearch of ${started} does not answer at ${recorded.OPENSEARCH_URL}`);
  if (record.keyHashSecretGiven && env.KEY_HASH_SECRET === undefined)
    throw new CliError(
      `${started} hashes keys with the KEY_HASH_SECRET of its environment: set the same KEY_HASH_SECRET here`,
      1,
      'no_stack',
    );
  if (record.webhookSecretKeyGiven === true && env.WEBHOOK_SECRET_KEY === undefined)
    throw new CliError(
      `${started} seals webhook secrets with the WEBHOOK_SECRET_KEY of its environment: set the same WEBHOOK_SECRET_KEY here`,
      1,
      'no_stack',
    );
  return Object.fromEntries(Object.entries(recorded).filter(([name]) => env[name] === undefined));
}
