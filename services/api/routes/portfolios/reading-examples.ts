import recorded from '../../openapi/examples.json' with { type: 'json' };
import { toCsv } from '../../../formats/api-csv.ts';
import type { CertificateDocument } from '../certificates/row.ts';
import { positionFigures, renderPosition } from './position-answer.ts';
import { flattenPosition, POSITION_CSV_COLUMNS } from './position-row.ts';
import { summarize } from './summarize.ts';

/**
 * The portfolio reads' OpenAPI examples, computed by the reads' own pure functions over the
 * recorded demo certificate (the one the quote example quotes), so an example cannot disagree
 * with what the routes answer for it; the unresolved position shows a certificate not loaded yet.
 */

const meta = (request_id: string) => ({ request_id, dataset_status: 'live' as const });
const AS_OF = '2026-03-20';
const PORTFOLIO = 'pf_Hk3mQ8vT2xLp9RwZ';

// The recorded row is a stored document plus parcel_url, which the mapper rebuilds: the recorded one is kept.
const doc = recorded.certificate.data as CertificateDocument & { parcel_url: string };
const heldFigures = positionFigures(
  {
    id: 'pos_Zt6pW1nC4sRb8YqE',
    origin: 'added',
    certificate_id: doc.id,
    county_slug: doc.county_slug,
    certificate_number: doc.certificate_number,
    tax_year: doc.tax_year,
    acquired_on: '2024-05-30',
    acquired_amount_cents: null,
    note: 'Margate condo, bought at the 2024 sale',
  },
  doc,
  AS_OF,
);
const unresolvedFigures = positionFigures(
  {
    id: 'pos_Ub2rE5sO7lVe3DqA',
    origin: 'added',
    certificate_id: 'cert_3f9a1c0d5e7b2a4c6d8e',
    county_slug: 'lee',
    certificate_number: '2025-004512',
    tax_year: 2025,
    acquired_on: null,
    acquired_amount_cents: 215000,
    note: null,
  },
  null,
  AS_OF,
);
const held = renderPosition(heldFigures, doc, AS_OF, '');
held.certificate = { ...held.certificate!, parcel_url: doc.parcel_url };
const rows = [held, renderPosition(unresolvedFigures, null, AS_OF, '')];

export const portfolioReadingExamples = {
  positions: { data: rows, pagination: { limit: 100, offset: 0, total: 2, has_more: false }, meta: meta('req_Pp4sI7tI1oNs2Lx8') },
  positionsCsv: toCsv([...POSITION_CSV_COLUMNS], rows.map(flattenPosition)),
  summary: { data: summarize(PORTFOLIO, AS_OF, [heldFigures, unresolvedFigures]), meta: meta('req_Ps5uM8mA2rY3Kz9c') },
};
