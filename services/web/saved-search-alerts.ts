import { publicEventId, type StoredEvent } from '../control/feed/events.ts';
import type { Registry } from '../domain/registry.ts';
import { count, moment } from './format.ts';

/**
 * A saved search's event as a line of its recent alerts: what happened, when, to which
 * certificate and where. data.object is the certificate row as the API renders it (a match
 * added, removed or updated) or a load's count (matches loaded); a field missing from an older
 * event's row shows as a dash, never as an error.
 */
const WHAT: Record<string, string> = {
  'saved_search.match_added': 'Now matches',
  'saved_search.match_removed': 'No longer matches',
  'saved_search.match_updated': 'Changed, still matches',
  'saved_search.matches_loaded': 'Matches in a first load',
};

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

export interface AlertRow {
  event: string;
  type: string;
  what: string;
  at: string;
  /** The certificate's number and id, or for a load how many of which tax year matched. */
  certificate: { number: string | null; id: string | null } | null;
  load: string | null;
  county: string;
}

export function alertRow(event: StoredEvent, registry: Pick<Registry, 'county'>): AlertRow {
  const object = event.data.object;
  const slug = text(object.county_slug) ?? event.countySlug;
  const county = text(object.county_name) ?? (slug === null ? null : (registry.county(slug)?.name ?? slug));
  const loaded = event.type === 'saved_search.matches_loaded';
  const matched = typeof object.count === 'number' ? object.count : null;
  return {
    event: publicEventId(event.seq),
    type: event.type,
    what: WHAT[event.type] ?? event.type,
    at: moment(event.createdAt),
    certificate: loaded ? null : { number: text(object.certificate_number), id: text(object.id) },
    load: loaded
      ? `${matched === null ? 'Certificates' : `${count(matched)} certificate${matched === 1 ? '' : 's'}`}${typeof object.tax_year === 'number' ? ` of tax year ${object.tax_year}` : ''}`
      : null,
    county: county ?? '–',
  };
}
