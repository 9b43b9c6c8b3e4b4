import type { Sql } from '../../services/control/db/sql.ts';
import { type AttemptOutcome, recordOutcomes } from '../../services/control/feed/webhook-deliveries.ts';

/**
 * Group commit of attempt outcomes. A busy worker ends hundreds of attempts a second; one
 * transaction each would be hundreds of commits. Outcomes that end in the same turn of the
 * event loop (up to MAX_BATCH) are written in one transaction, and each caller is answered only
 * once its outcome is committed: a job is never completed, and never moved to its retry, before
 * its attempt is on disk, so a worker killed at any point loses no outcome it reported.
 */

const MAX_BATCH = 500;

export interface AttemptWriter {
  /** Resolves with the endpoints this batch disabled, once the outcome is committed. */
  write(outcome: AttemptOutcome): Promise<string[]>;
}

export function createAttemptWriter(sql: Sql, disableAfterMs: number): AttemptWriter {
  let pending: { outcome: AttemptOutcome; resolve: (disabled: string[]) => void; reject: (err: unknown) => void }[] = [];
  let scheduled = false;

  // Outcomes that arrive while a batch commits wait for the next one (flushed when it ends), so
  // there is one write transaction at a time and each carries everything that queued meanwhile.
  let flushing = false;
  const flush = async () => {
    scheduled = false;
    flushing = true;
    const batch = pending;
    pending = [];
    for (let i = 0; i < batch.length; i += MAX_BATCH) {
      const part = batch.slice(i, i + MAX_BATCH);
      try {
        const disabled = await recordOutcomes(
          sql,
          part.map((p) => p.outcome),
          disableAfterMs,
        );
        for (const p of part) p.resolve(disabled);
      } catch (err) {
        for (const p of part) p.reject(err);
      }
    }
    flushing = false;
    if (pending.length > 0 && !scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };

  return {
    write(outcome) {
      return new Promise((resolve, reject) => {
        pending.push({ outcome, resolve, reject });
        if (!scheduled && !flushing) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}
