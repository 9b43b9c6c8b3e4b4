import type { Registry } from '../../domain/registry.ts';
import type { AddressPolicy } from '../../domain/webhook-address.ts';
import { checkWebhookUrl } from '../../domain/webhook-url.ts';
import { EVENT_TYPES, type EventType } from './events.ts';

/**
 * An endpoint as a person asks for it (the CLI now, the account page later), checked in one
 * place: every problem typed { field, problem }, so each caller names its own flag or form field.
 */

export interface EndpointInput {
  url: string;
  /** Omitted: every type. */
  types?: readonly string[];
  /** County slugs; omitted: every county. */
  counties?: readonly string[];
}

export interface CheckedEndpointInput {
  url: string;
  types: EventType[] | null;
  counties: string[] | null;
}

export interface EndpointInputProblem {
  field: 'url' | 'types' | 'counties';
  problem: string;
}

export type EndpointInputCheck = { ok: true; value: CheckedEndpointInput } | { ok: false; problems: EndpointInputProblem[] };

const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

export function checkEndpointInput(input: EndpointInput, context: { registry: Registry; policy: AddressPolicy }): EndpointInputCheck {
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

  if (problems.length > 0 || !url.ok) return { ok: false, problems };
  return { ok: true, value: { url: url.url, types, counties } };
}
