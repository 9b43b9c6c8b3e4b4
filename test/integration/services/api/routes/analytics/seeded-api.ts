import type { FastifyInstance } from 'fastify';
import { certificateDocument } from '../../../../../../indexer/certificates/certificate-document.ts';
import { buildApp } from '../../../../../../services/api/app.ts';
import { migrate } from '../../../../../../services/control/db/migrate.ts';
import { loadHolderAliases } from '../../../../../../services/domain/holder-groups.ts';
import { PARCEL_DOCUMENT_FIELDS } from '../../../../../../services/domain/parcel-facts.ts';
import type { CertificateRecord } from '../../../../../../services/domain/records.ts';
import { apiKeyHeaders, deleteRateKeys } from '../../../../../helpers/access.ts';
import { openTestRuntime, type TestRuntime } from '../../../../../helpers/runtime.ts';
import { loadOnThreeShards } from '../certificates/seed.ts';

const OWN_FIELDS = ['owner_type', ...PARCEL_DOCUMENT_FIELDS] as const;

function ownParcelFields(r: CertificateRecord): Record<string, unknown> {
  const own = r as CertificateRecord & Record<string, unknown>;
  return Object.fromEntries(OWN_FIELDS.filter((f) => own[f] !== undefined).map((f) => [f, own[f]]));
}

/**
 * An API over certificate records on a 3-shard index (analytics must stay exact on a cluster),
 * indexed as the worker indexes them (holder groups included), with an Enterprise key. A record
 * that already carries parcel fields or an owner type (a test placing certificates on the map)
 * keeps its own: the test's independent computation reads those very values.
 */
export interface SeededApi {
  t: TestRuntime;
  app: FastifyInstance;
  auth: Record<string, string>;
  close(): Promise<void>;
}

export async function openSeededApi(
  fileUrl: string,
  records: readonly CertificateRecord[],
  env: Record<string, string> = {},
  /** rollups: false seeds an index without rollups, which every analytic read scans. */
  options: { rollups?: boolean } = {},
): Promise<SeededApi> {
  const t = await openTestRuntime(fileUrl, env);
  await migrate(t.runtime.sql);
  const aliases = loadHolderAliases();
  await loadOnThreeShards(
    t.runtime.opensearch,
    t.config.INDEX_PREFIX,
    records.map((r) => Object.assign(certificateDocument(r, aliases), ownParcelFields(r))),
    options,
  );
  const auth = await apiKeyHeaders(t.runtime);
  const app = await buildApp(t.runtime);
  return {
    t,
    app,
    auth,
    async close() {
      await app.close();
      await deleteRateKeys(t.runtime, t.config.INDEX_PREFIX);
      await t.teardown();
    },
  };
}
