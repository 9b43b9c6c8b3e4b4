import type { z } from 'zod';

/**
 * A parameter's problem in the product's words, for every kind of issue zod can raise
 * where a schema gave no message of its own (a schema's own message always wins: zod
 * asks this map only for the rest). zod's defaults ("Invalid input: expected number,
 * received string", "Invalid option: expected one of \"a\"|\"b\"") describe zod, not
 * the parameter; these say what the caller has to send instead.
 *
 * Passed as the per-parse error map by parseParams (parse.ts), for REST and MCP alike.
 */
export function paramMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'is required' : `must be ${TYPE_WORDS[issue.expected] ?? issue.expected}`;
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${String(issue.values[0])}` : `must be one of ${issue.values.map(String).join(', ')}`;
    case 'too_small':
      return size('at least', issue.origin, issue.minimum, issue.inclusive, issue.exact);
    case 'too_big':
      return size('at most', issue.origin, issue.maximum, issue.inclusive, issue.exact);
    case 'invalid_format':
      return formatMessage(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'unknown parameter';
    case 'invalid_union':
      return 'matches none of the forms this parameter takes';
    case 'invalid_key':
      return 'has a key this parameter does not take';
    case 'invalid_element':
      return 'has a value this parameter does not take';
    default:
      // custom: a refinement written without a message.
      return 'is not a value this parameter takes';
  }
}

/** What a value of each JSON type is called in "must be ...". */
const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  array: 'one value or a list of values',
  object: 'an object of named values',
  date: 'a date',
  null: 'null',
};

type Bound = number | bigint;

function size(side: 'at least' | 'at most', origin: string, bound: Bound, inclusive?: boolean, exact?: boolean): string {
  const n = Number(bound);
  if (origin === 'string') {
    if (side === 'at least' && n === 1 && !exact) return 'must not be empty';
    return `must be ${exact ? 'exactly' : side} ${n} character${n === 1 ? '' : 's'} long`;
  }
  if (origin === 'array' || origin === 'set') {
    if (exact) return `takes exactly ${n} value${n === 1 ? '' : 's'}`;
    return side === 'at least' ? `must have at least ${n} value${n === 1 ? '' : 's'}` : `takes at most ${n} value${n === 1 ? '' : 's'}`;
  }
  if (inclusive === false) return `must be ${side === 'at least' ? 'greater' : 'less'} than ${n}`;
  return `must be ${side} ${n}`;
}

/** The formats zod checks, named as a caller knows them. */
const FORMAT_WORDS: Record<string, string> = {
  date: 'a real calendar date written YYYY-MM-DD',
  datetime: 'a date and time such as 2024-06-01T12:00:00Z',
  time: 'a time such as 12:00:00',
  email: 'an email address such as name@example.com',
  url: 'an address such as https://example.com/',
  uuid: 'a UUID',
};

function formatMessage(issue: z.core.$ZodRawIssue<z.core.$ZodIssueInvalidStringFormat>): string {
  const detail = issue as { prefix?: string; suffix?: string; includes?: string };
  if (issue.format === 'starts_with') return `must start with "${detail.prefix}"`;
  if (issue.format === 'ends_with') return `must end with "${detail.suffix}"`;
  if (issue.format === 'includes') return `must include "${detail.includes}"`;
  // A pattern written without a message: the pattern itself means nothing to a caller.
  if (issue.format === 'regex') return 'is not written in the form this parameter takes';
  return `must be ${FORMAT_WORDS[issue.format] ?? `a valid ${issue.format}`}`;
}
