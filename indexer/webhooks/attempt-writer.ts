import type { Database } from 'better-sqlite3';
import { type AttemptOutcome, recordOutcomes } from '../../services/control/webhook-deliveries.ts';

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

export function createAttemptWriter(db: Database, disableAfterMs: number): AttemptWriter {
  let pending: { outcome: AttemptOutcome; resolve: (disabled: string[]) => void; reject: (err: unknown) => void }[] = [];
  let scheduled = false;

  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    for (let i = 0; i < batch.length; i += MAX_BATCH) {
      const part = batch.slice(i, i + MAX_BATCH);
      try {
        const disabled = recordOutcomes(
          db,
          part.map((p) => p.outcome),
          disableAfterMs,
        );
        for (const p of part) p.resolve(disabled);
      } catch (err) {
        for (const p of part) p.reject(err);
      }
    }
  };

  return {
    write(outcome) {
      return new Promise((resolve, reject) => {
        pending.push({ outcome, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
  };
}
