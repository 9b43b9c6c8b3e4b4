import type { Registry } from '../../domain/registry.ts';
import type { AddressPolicy } from '../../domain/webhook-address.ts';
import { checkWebhookUrl } from '../../domain/webhook-url.ts';
import type { Sql } from '../db/sql.ts';
import { EVENT_TYPES, type EventType } from './events.ts';
import { savedSearchOwners } from './saved-searches.ts';

/**
 * An endpoint as a person asks for it (the CLI, the account page, the API), checked in one
 * place: every problem typed { field, problem }, so each caller names its own flag or form field.
 */

export interface EndpointInput {
  url: string;
  /** Omitted: every type. */
  types?: readonly string[];
  /** County slugs; omitted: every county. */
  counties?: readonly string[];
  /** Ids of the client's own saved searches whose private events it receives; omitted: all of them. */
  savedSearches?: readonly string[];
}

export interface CheckedEndpointInput {
  url: string;
  types: EventType[] | null;
  counties: string[] | null;
  savedSearches: string[] | null;
}

export interface EndpointInputProblem {
  field: 'url' | 'types' | 'counties' | 'saved_searches';
  problem: string;
}

export interface EndpointInputContext {
  registry: Registry;
  policy: AddressPolicy;
  /**
   * Which of input.savedSearches are the client's own saved searches (checkClientEndpointInput
   * reads them); any other id, another client's included, is refused as unknown.
   */
  ownSavedSearches?: ReadonlySet<string>;
}

export type EndpointInputCheck = { ok: true; value: CheckedEndpointInput } | { ok: false; problems: EndpointInputProblem[] };

const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

export function checkEndpointInput(input: EndpointInput, context: EndpointInputContext): EndpointInputCheck {
  const problems: EndpointInputProblem[] = [];
  const url = checkWebhookUrl(input.url.trim(), context.policy);
  if (!url.ok) problems.push({ field: 'url', problem: url.problem });

  let types: EventType[] | null = null;
  if (input.types !== undefined) {
    const unknown = input.types.filter((t) => !isEventType(t));
    if (input.types.length === 0)
      problems.push({ field: 'types', problem: 'must name at least one event type (leave it out for every type)' });
    else if (unknown.length > 0)
      problems.push({ field: 'types', problem: `unknown event type ${JSON.stringify(unknown[0])}; one of ${EVENT_TYPES.join(', ')}` });
    else types = [...new Set(input.types as EventType[])].sort();
  }

  let counties: string[] | null = null;
  if (input.counties !== undefined) {
    const unknown = input.counties.filter((c) => context.registry.county(c) === undefined);
    if (input.counties.length === 0)
      problems.push({ field: 'counties', problem: 'must name at least one county (leave it out for every county)' });
    else if (unknown.length > 0)
      problems.push({ field: 'counties', problem: `unknown county slug ${JSON.stringify(unknown[0])} (taxcert counties lists them)` });
    else counties = [...new Set(input.counties)].sort();
  }

  let savedSearches: string[] | null = null;
  if (input.savedSearches !== undefined) {
    // Another client's search is answered as unknown: whether it exists is not this client's to learn.
    const unknown = input.savedSearches.filter((id) => !context.ownSavedSearches?.has(id));
    if (input.savedSearches.length === 0)
      problems.push({ field: 'saved_searches', problem: 'must name at least one saved search (leave it out for every saved search)' });
    else if (unknown.length > 0)
      problems.push({
        field: 'saved_searches',
        problem: `unknown saved search ${JSON.stringify(unknown[0])}; name the client's own (GET /api/v1/saved-searches lists them)`,
      });
    else savedSearches = [...new Set(input.savedSearches)].sort();
  }

  if (problems.length > 0 || !url.ok) return { ok: false, problems };
  return { ok: true, value: { url: url.url, types, counties, savedSearches } };
}

/**
 * checkEndpointInput for an endpoint of this client, with the saved searches it names looked up:
 * only the client's own count. A search deleted after the check stays named by the endpoint,
 * which then simply receives no events of it.
 */
export async function checkClientEndpointInput(
  sql: Sql,
  clientId: string,
  input: EndpointInput,
  context: Omit<EndpointInputContext, 'ownSavedSearches'>,
): Promise<EndpointInputCheck> {
  const owners = input.savedSearches?.length ? await savedSearchOwners(sql, input.savedSearches) : new Map<string, { clientId: string }>();
  const own = new Set([...owners].filter(([, owner]) => owner.clientId === clientId).map(([id]) => id));
  return checkEndpointInput(input, { ...context, ownSavedSearches: own });
}
