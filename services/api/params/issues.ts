import type { z } from 'zod';
import { InvalidParamsError, type ParamIssue } from '../errors.ts';

/**
 * The problems of one request, bounded: an answer names the first few and counts
 * the rest, and echoes a name only in part, so a request of 100,000 unknown names
 * or one name of a megabyte costs microseconds and answers a few hundred bytes
 * (unbounded, 100,000 unknown names cost about 700 ms of event loop and a 35 MiB
 * answer, and the failed call's credit was refunded, so it cost the caller nothing).
 */

export const MAX_ISSUES = 10;
const MAX_ECHO = 64;

/** A caller's text as we echo it: at most 64 characters, then "…". */
export function shortText(text: string): string {
  if (text.length <= MAX_ECHO) return text;
  let cut = text.slice(0, MAX_ECHO);
  // Never end on half a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

export class IssueList {
  readonly issues: ParamIssue[] = [];
  omitted = 0;
  private readonly seen = new Set<string>();
  /** Every parameter named so far, shown or counted. */
  private readonly named = new Set<string>();

  /**
   * One problem of one parameter. A message written by a function is only written
   * for an issue that will be shown (a did-you-mean search costs more than a count).
   */
  add(parameter: string, message: string): void;
  add<A>(parameter: string, message: (parameter: string, arg: A) => string, arg: A): void;
  add<A>(parameter: string, message: string | ((parameter: string, arg: A) => string), arg?: A): void {
    this.named.add(parameter);
    if (typeof message === 'string') {
      // zod names a bad value of a list once per item: the same problem of the same parameter counts once.
      const key = `${shortText(parameter)}\u0000${message}`;
      if (this.seen.has(key)) return;
      this.seen.add(key);
    }
    if (this.issues.length >= MAX_ISSUES) this.omitted++;
    else
      this.issues.push({
        parameter: shortText(parameter),
        message: typeof message === 'string' ? message : message(parameter, arg as A),
      });
  }

  /** The parameters named so far (a copy): values refused before the schema read them. */
  parameters(): Set<string> {
    return new Set(this.named);
  }

  get empty(): boolean {
    return this.issues.length === 0;
  }

  error(): InvalidParamsError {
    return new InvalidParamsError(this.issues, this.omitted);
  }
}

/**
 * zod's issues, one per parameter and problem, added to `list`; a parameter the list
 * already names (refused before the schema read it, so missing from what it read) is
 * not named again.
 */
export function zodIssues(error: z.ZodError, list = new IssueList()): InvalidParamsError {
  const refused = list.parameters();
  for (const issue of error.issues) {
    // Native input reaching a strict schema with unknown names still in it: name each one.
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) if (!refused.has(key)) list.add(key, 'unknown parameter');
      continue;
    }
    const parameter = issue.path.length > 0 ? String(issue.path[0]) : 'parameters';
    if (!refused.has(parameter)) list.add(parameter, issue.message);
  }
  return list.error();
}

/** "unknown parameter", with the accepted name it is most likely a typo of. */
export function unknownMessage(name: string, known: readonly string[]): string {
  const close = nearest(name, known);
  const accepted = known.length > 0 ? `accepted: ${known.join(', ')}` : 'this endpoint takes no parameters';
  return `unknown parameter${close ? ` (did you mean ${close}?)` : ''}; ${accepted}`;
}

/**
 * An accepted name within two edits. Two edits change a length by at most two, so
 * a name whose length is further from every accepted name's is no typo of any and
 * is never compared: the work is bounded by the accepted names, not by the input.
 */
function nearest(name: string, known: readonly string[]): string | undefined {
  for (const k of known) {
    if (Math.abs(k.length - name.length) > 2) continue;
    if (editDistance(k, name.toLowerCase()) <= 2) return k;
  }
  return undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j]!;
      row[j] = next;
    }
  }
  return row[b.length]!;
}
