import { type Command, CommanderError } from 'commander';
import { CLIENT_STATUSES, type ClientStatus, SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../control/billing/clients.ts';
import { isPlanCode, PLAN_CODES, type PlanCode } from '../control/billing/plans.ts';
import { CliError } from './output.ts';

/** Argument checks shared by the operator commands; a bad value is a usage error (exit 2). */

export function planArg(value: string): PlanCode {
  if (!isPlanCode(value)) throw new CliError(`unknown plan "${value}": one of ${PLAN_CODES.join(', ')}`, 2);
  return value;
}

export function statusArg(value: string): ClientStatus {
  if (!(CLIENT_STATUSES as readonly string[]).includes(value))
    throw new CliError(`--status must be one of ${CLIENT_STATUSES.join(', ')}`, 2);
  return value as ClientStatus;
}

export function subscriptionArg(value: string): SubscriptionStatus {
  if (!(SUBSCRIPTION_STATUSES as readonly string[]).includes(value))
    throw new CliError(`--subscription must be one of ${SUBSCRIPTION_STATUSES.join(', ')}`, 2);
  return value as SubscriptionStatus;
}

export function countArg(name: string, value: string, min: number): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min) throw new CliError(`${name} must be an integer >= ${min}`, 2);
  return n;
}

/** An ISO-8601 timestamp with a time zone (2026-01-31T12:00:00Z) or a plain date (UTC midnight). */
export function instantArg(name: string, value: string): Date {
  const ok = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value);
  const d = new Date(value);
  if (!ok || Number.isNaN(d.getTime())) throw new CliError(`${name} must be an ISO-8601 time such as 2026-01-31T12:00:00Z`, 2);
  return d;
}

export function dayArg(name: string, value: string): string {
  const d = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value)
    throw new CliError(`${name} must be a calendar date YYYY-MM-DD`, 2);
  return value;
}

/**
 * Operator commands are called by scripts: a usage error commander finds itself
 * (a missing option or argument, an unknown option) exits 2 with one line, like
 * the checks above, instead of 1 and the help text. Set on a group before its
 * subcommands are added: commander copies both settings to them.
 */
export function scriptFriendly(group: Command): Command {
  return group.showHelpAfterError(false).exitOverride((err) => {
    if (err.exitCode === 0) throw err; // --help, --version
    throw new CommanderError(2, err.code, err.message);
  });
}
