import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { extensionFor } from '../../services/generator/generate-fixtures.ts';
import type { FilePlan, GeneratedState } from '../../services/generator/generate-state.ts';
import { writerFor } from '../../services/generator/writers/index.ts';
import { createIngestQueue, redisConnection } from '../../indexer/queue.ts';
import { enqueueFiles } from '../../services/process/ingest-runner.ts';
import { aliasName } from '../../services/domain/datasets.ts';
import type { CertificateRecord } from '../../services/domain/records.ts';
import type { Runtime } from '../../services/process/runtime.ts';

/**
 * How soon a county's update is searchable on a loaded index (target: p50 under 2 s). Each
 * sample writes the first `rows` certificates of one county-year of the loaded set again, in
 * the county's own format, with corrected owner names (a county re-publishing part of its
 * list), queues the file as `taxcert ingest` does, and polls a count until every one of its
 * rows shows the new load and the change feed holds an event for each of them (an update a
 * customer cannot hear of is not fresh yet): the time from queueing to the first moment both
 * hold, and to the job's completion. With saved searches in place the feed must also hold the
 * update's private events (its saved searches' matches of the county, rows of `events` with an
 * owner): how many is known only once the job is over, so the poll that first saw every row's
 * public event counts only if it saw as many private ones as the job recorded in the end.
 */

export interface FreshnessSample {
  /** County and tax year of the update. */
  file: string;
  /** The update file's path, as the worker's log names it. */
  path: string;
  rows: number;
  /** From queueing to the first poll that saw every row searchable and every row's change event recorded. */
  visibleMs: number;
  /** Of which: from queueing to the first count that saw every row searchable. */
  searchableMs: number;
  /** Of which: from queueing to the first poll that found an event for every row, and every private event of the update, in the feed. */
  eventsMs: number;
  /** The saved searches' events the update recorded (0 with none saved). */
  privateEvents: number;
  /** From queueing to the job's completion (bookkeeping included). */
  completedMs: number;
}

const POLL_MS = 10;

function* firstRows(records: Iterable<CertificateRecord>, rows: number): Generator<CertificateRecord> {
  let k = 0;
  for (const r of records) {
    if (k++ >= rows) return;
    // The county corrected its owner names: every row of the update is a real change.
    yield { ...r, owner_name: `${r.owner_name.slice(0, 52)} ET AL` };
  }
}

async function writeUpdate(state: GeneratedState, plan: FilePlan, rows: number, dir: string, name: string, asOf: string): Promise<string> {
  const path = join(dir, `${name}-${plan.county.slug}-${plan.taxYear}.${extensionFor(plan.channel.format)}`);
  const out = createWriteStream(path);
  await writerFor(plan.channel.format)!.write(firstRows(state.records(plan), rows), out, {
    county: plan.county,
    taxYear: plan.taxYear,
    asOf,
  });
  out.end();
  await finished(out);
  return path;
}

export async function measureFreshness(
  runtime: Runtime,
  options: {
    state: GeneratedState;
    samples: number;
    rows: number;
    dir: string;
    asOf: string;
    /** Names this series' update files, which the worker's log names: two series in one log need two labels. */
    label?: string;
  },
): Promise<FreshnessSample[]> {
  const { state, rows } = options;
  const eligible = state.files.filter((f) => f.rows >= rows);
  if (eligible.length === 0) throw new Error(`no county-year of the set has ${rows} rows`);
  const alias = aliasName(runtime.config.INDEX_PREFIX, 'certificates');
  const connection = redisConnection(runtime.config);
  const queue = createIngestQueue(runtime.config, connection);
  const out: FreshnessSample[] = [];
  try {
    for (let i = 0; i < options.samples; i++) {
      // Spread over the set's counties and years.
      const plan = eligible[Math.floor((i * eligible.length) / options.samples)]!;
      const file = await writeUpdate(state, plan, rows, options.dir, `${options.label ?? 'update'}-${i}`, options.asOf);
      // Every row's owner name changed: one certificate.updated event each, after the last id before queueing.
      const lastEvent = (await runtime.sql.get<{ id: number | null }>('SELECT max(id) AS id FROM events'))?.id ?? 0;
      const countEvents = async (county: string, after: number) => {
        const row = await runtime.sql.get<{ shared: number | null; owned: number | null }>(
          `SELECT sum(CASE WHEN client_id IS NULL THEN 1 ELSE 0 END) AS shared, sum(CASE WHEN client_id IS NULL THEN 0 ELSE 1 END) AS owned
           FROM events WHERE county_slug = ? AND id > ?`,
          [county, after],
        );
        return { shared: Number(row?.shared ?? 0), owned: Number(row?.owned ?? 0) };
      };
      // The first poll that saw an event for every row, with the private events it saw then.
      let seenAll: { ms: number; owned: number } | undefined;
      const since = new Date().toISOString();
      const t0 = performance.now();
      const [queued] = await enqueueFiles(
        runtime,
        [{ dataset: 'certificates', file, vendor: plan.channel.channel, county: plan.county.slug, taxYear: plan.taxYear }],
        { wait: false },
      );
      const query = {
        bool: {
          filter: [
            { term: { county_slug: plan.county.slug } },
            { term: { tax_year: plan.taxYear } },
            { range: { ingested_at: { gte: since } } },
          ],
        },
      };
      let searchableMs = Number.NaN;
      let completedMs = Number.NaN;
      while (Number.isNaN(completedMs)) {
        if (Number.isNaN(searchableMs)) {
          const seen = (await runtime.opensearch.count({ index: alias, body: { query } as never })).body.count;
          if (seen >= rows) searchableMs = performance.now() - t0;
        }
        if (!seenAll) {
          const counted = await countEvents(plan.county.slug, lastEvent);
          if (counted.shared >= rows) seenAll = { ms: performance.now() - t0, owned: counted.owned };
        }
        const state = await queue.getJobState(queued!.jobId);
        if (state === 'completed') completedMs = performance.now() - t0;
        else if (state === 'failed') throw new Error(`freshness sample ${i}: the job for ${file} failed`);
        if (Number.isNaN(completedMs)) await new Promise((r) => setTimeout(r, POLL_MS));
      }
      // A job completes only after its rows are searchable, so a completed job with no visible
      // count yet would be a broken promise: checked once more, and reported as such.
      if (Number.isNaN(searchableMs)) {
        const seen = (await runtime.opensearch.count({ index: alias, body: { query } as never })).body.count;
        if (seen < rows) throw new Error(`freshness sample ${i}: job completed but only ${seen} of ${rows} rows are searchable`);
        searchableMs = completedMs;
      }
      // Events are published after the refresh and before bookkeeping, so a completed job has them all.
      const recorded = await countEvents(plan.county.slug, lastEvent);
      if (recorded.shared < rows)
        throw new Error(`freshness sample ${i}: job completed but only ${recorded.shared} of ${rows} change events are recorded`);
      // One transaction publishes the public and the private events, so the poll that saw the
      // public ones saw the private ones too; were it not so, they count as in at completion.
      const eventsMs = seenAll && seenAll.owned >= recorded.owned ? seenAll.ms : completedMs;
      out.push({
        file: `${plan.county.slug} ${plan.taxYear}`,
        path: file,
        rows,
        visibleMs: Math.round(Math.max(searchableMs, eventsMs)),
        searchableMs: Math.round(searchableMs),
        eventsMs: Math.round(eventsMs),
        privateEvents: recorded.owned,
        completedMs: Math.round(completedMs),
      });
      // Let the worker settle (refresh groups, settings) before the next county's update.
      await new Promise((r) => setTimeout(r, 1500));
    }
  } finally {
    await queue.close();
    connection.disconnect();
  }
  return out;
}
