import { loadHolderAliases } from '../../services/domain/holder-groups.ts';
import { adapterFor } from '../adapters/index.ts';
import type { DatasetFile, DatasetFileDeps } from '../dataset-file.ts';
import { FileRejectedError } from '../errors.ts';
import { certificateFeed } from './certificate-feed.ts';
import type { IngestJob } from '../queue.ts';
import { recordCertificateIngest } from './bookkeeping.ts';
import { buildCertificate } from './build-certificate.ts';
import { createHolderMemory } from '../holder-memory.ts';
import { type CertificateDocument, withIndexFields } from './certificate-document.ts';
import { countyParcelsVersion } from '../parcels/county-parcels.ts';
import { joinParcelsOntoCertificates } from '../parcels/join-certificates.ts';
import type { Adapted, RawRow } from '../adapters/types.ts';
import { parcelLookup } from './parcel-lookup.ts';
import { CertificateRollups } from './certificate-rollups.ts';

/**
 * A certificate file: the county's channel (or the job's vendor) names the
 * format, its adapter in adapters/ reads the rows, buildCertificate makes
 * canonical records, a re-ingested certificate may not change its parcel
 * (parcel-conflicts.ts), each document carries its holder group
 * (certificate-document.ts), what the file changes is recorded in the change feed
 * (certificate-feed.ts, from the same read of the index as the parcel check), each document
 * carries the facts of its parcel row (fetched batch by batch as pass 1 reads the file:
 * parcel-lookup.ts), and once searchable the county, its source, freshness and the
 * year's sale summary are read back from the index.
 *
 * A parcel file of the same county may load while this file does (the worker runs several files
 * at once and does not serialize a county's jobs). Its join onto the certificates runs once its
 * parcels are searchable and reads the certificates after a refresh; this file's documents carry
 * the parcels read during its pass 1. If the county's parcels changed since pass 1 began (their
 * version differs once this file is searchable), this file joins them again itself, so whichever
 * job finishes last leaves every certificate with its parcel row's facts.
 */
export function certificateFile(job: IngestJob, deps: DatasetFileDeps, at: string): DatasetFile<CertificateDocument> {
  const county = deps.registry.county(job.county);
  if (!county) throw new FileRejectedError('wrong_county', `unknown county "${job.county}"`);
  const channel = deps.registry.channelForVendor(job.vendor, county);
  if (!channel) throw new FileRejectedError('unknown_format', `no file format is registered for vendor "${job.vendor}"`);
  const adapter = adapterFor(channel.format);
  if (!adapter) throw new FileRejectedError('unknown_format', `format "${channel.format}" has no adapter`);

  const holders = deps.holderMemory ?? createHolderMemory(deps.holderAliases ?? loadHolderAliases());
  const ctx = {
    county,
    counties: deps.registry.counties,
    taxYear: job.taxYear,
    vendor: channel.certificateVendor,
    parcelBaseUrl: deps.parcelBaseUrl,
    ingestedAt: at,
    holderIds: holders.ids,
  };
  const groupOf = holders.groups;
  const rollups = new CertificateRollups(
    deps.opensearch,
    deps.prefix,
    { countySlug: county.slug, taxYear: job.taxYear },
    deps.rollupLedger,
    deps.heldRollups,
  );
  const feed = certificateFeed(deps, { jobId: job.jobId, county, taxYear: job.taxYear }, rollups);
  const parcels = parcelLookup(deps.opensearch, deps.prefix, county.slug);
  // Each row is adapted once: for its parcel id as its batch is fetched, and then built from that.
  const adapted = new WeakMap<RawRow, Adapted>();
  const adapt = (row: RawRow) => {
    const a = adapter.toInput(row);
    adapted.set(row, a);
    return a.input.parcel_id;
  };
  return {
    format: {
      dataset: 'certificates',
      format: channel.format,
      rows: (source) => parcels.rows(adapter.rows(source, { county, counties: deps.registry.counties, taxYear: job.taxYear }), adapt),
      build: (row) => {
        const { input, reasons } = adapted.get(row) ?? adapter.toInput(row);
        return withIndexFields(buildCertificate(input, reasons, ctx), groupOf, parcels.get);
      },
      repeated: (record, firstLine) => ({
        field: 'certificate_number',
        problem: `${record.certificate_number} is listed again (first on line ${firstLine})`,
      }),
      spooled: (record) => {
        rollups.observe(record);
        return feed.observe(record as unknown as Record<string, unknown>);
      },
    },
    withinSend: (send, refused) => rollups.withinSend(send, refused),
    conflicts: (docs, fileSha256) => feed.compare(docs, fileSha256),
    publishChanges: (refused) => feed.publish(refused),
    changedCount: () => feed.changed(),
    timingsMs: () => feed.timingsMs(),
    bookkeep: async () => {
      const read = parcels.version();
      if (read !== undefined && (await countyParcelsVersion(deps.opensearch, deps.prefix, county.slug)) !== read)
        await joinParcelsOntoCertificates(deps.opensearch, deps.prefix, { countySlug: county.slug, refresh: deps.refreshCertificates });
      const { sale } = await recordCertificateIngest(deps, {
        county,
        taxYear: job.taxYear,
        channel,
        at,
        today: at.slice(0, 10),
        file: job.file,
      });
      await feed.recordSale(sale);
    },
  };
}
