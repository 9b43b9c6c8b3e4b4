/**
 * Collects the calls made in one run of the microtask queue and runs them as one batch: the
 * ledger charges of the requests whose rate-limit answers arrived together share one
 * control-plane transaction, whose begin and commit cost more CPU than the charges in it (see
 * docs/decisions.md, "The request path's CPU budget"). The batch runs on process.nextTick,
 * which Node runs once the microtasks queued so far have drained, so every admission resumed by
 * the same Redis reply is in it; each caller still gets its own result or its own error, and
 * nothing waits longer than the turn it was asked in (plus the batch's own transaction).
 *
 * `run` resolves to one result per item, in order; an Error in a slot rejects that caller
 * only, and a rejection rejects the whole batch.
 */
export function createTurnBatch<I, O>(run: (items: I[]) => Promise<(O | Error)[]>): (item: I) => Promise<O> {
  let pending: { item: I; resolve: (value: O) => void; reject: (err: unknown) => void }[] = [];

  async function flush(): Promise<void> {
    const batch = pending;
    pending = [];
    let results: (O | Error)[];
    try {
      results = await run(batch.map((p) => p.item));
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => {
      const result = results[i]!;
      if (result instanceof Error) p.reject(result);
      else p.resolve(result);
    });
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      if (pending.length === 0) process.nextTick(() => void flush());
      pending.push({ item, resolve, reject });
    });
}
