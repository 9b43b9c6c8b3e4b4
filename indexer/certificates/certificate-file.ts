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
import { type CountyParcels, countyParcelsVersion, readCountyParcels } from '../parcels/county-parcels.ts';
import { joinParcelsOntoCertificates } from '../parcels/join-certificates.ts';

/**
 * A certificate file: the county's channel (or the job's vendor) names the
 * format, its adapter in adapters/ reads the rows, buildCertificate makes
 * canonical records, a re-ingested certificate may not change its parcel
 * (parcel-conflicts.ts), each document carries its holder group
 * (certificate-document.ts), what the file changes is recorded in the change feed
 * (certificate-feed.ts, from the same read of the index as the parcel check), each document
 * carries the facts of its parcel row (the county's parcels, read once as pass 1 starts:
 * parcels/county-parcels.ts), and once searchable the county, its source, freshness and the
 * year's sale summary are read back from the index.
 *
 * A parcel file of the same county may load while this file does (the worker runs several files
 * at once and does not serialize a county's jobs). Its join onto the certificates runs once its
 * parcels are searchable and reads the certificates after a refresh; this file's documents carry
 * the parcels read as its pass 1 began. If the county's parcels changed since (their version
 * differs once this file is searchable), this file joins them again itself, so whichever job
 * finishes last leaves every certificate with its parcel row's facts.
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
  const feed = certificateFeed(deps, { jobId: job.jobId, county, taxYear: job.taxYear });
  let parcels: CountyParcels | undefined;
  const parcelOf = (parcelId: string) => parcels?.get(parcelId);
  return {
    format: {
      dataset: 'certificates',
      format: channel.format,
      rows: async function* (source) {
        // Read in pass 1's turn, not when the job is taken: the latest parcels, and none held while queued.
        parcels = await readCountyParcels(deps.opensearch, deps.prefix, county.slug);
        yield* adapter.rows(source, { county, counties: deps.registry.counties, taxYear: job.taxYear });
      },
      build: (row) => {
        const { input, reasons } = adapter.toInput(row);
        return withIndexFields(buildCertificate(input, reasons, ctx), groupOf, parcelOf);
      },
      repeated: (record, firstLine) => ({
        field: 'certificate_number',
        problem: `${record.certificate_number} is listed again (first on line ${firstLine})`,
      }),
    },
    conflicts: (docs, fileSha256) => feed.compare(docs, fileSha256),
    publishChanges: (refused) => feed.publish(refused),
    changedCount: () => feed.changed(),
    timingsMs: () => feed.timingsMs(),
    bookkeep: async () => {
      const read = parcels?.version;
      parcels = undefined;
      if (read !== undefined && (await countyParcelsVersion(deps.opensearch, deps.prefix, county.slug)) !== read)
        await joinParcelsOntoCertificates(deps.opensearch, deps.prefix, county.slug);
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
