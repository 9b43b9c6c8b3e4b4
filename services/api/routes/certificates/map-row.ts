/**
 * The one certificate mapper lives in the domain (services/domain/certificate-row.ts):
 * the ingest renders the rows of the change feed's events with it, so an
 * event's certificate is exactly what this route answers.
 */
export { mapCertificate } from '../../../domain/certificate-row.ts';
