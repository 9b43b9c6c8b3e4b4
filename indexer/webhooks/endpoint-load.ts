/**
 * How many requests this worker process has open to each endpoint, so one slow receiver cannot
 * take every delivery slot. An endpoint whose recent requests took SLOW_MS or more on average
 * may have WEBHOOK_ENDPOINT_MAX_IN_FLIGHT open; any other may use up to half the worker's slots
 * (never less than that limit), since it gives each slot back quickly: a busy firehose on a
 * healthy receiver is not throttled, and no single endpoint can take every slot. A delivery to an endpoint at its
 * limit goes back to the queue for about as long as the deliveries already waiting for that
 * endpoint will take: the n-th one waiting sits out ceil(n / limit) of the endpoint's recent
 * request times, so a large backlog behind a slow receiver comes back about once, in order,
 * instead of spinning through the queue every few hundred milliseconds.
 */

interface Load {
  open: number;
  /** Deliveries sent back to the queue and not yet due again. */
  deferred: number;
  /** Recent request time (exponential moving average), ms. */
  avgMs: number;
}

export interface EndpointLoads {
  /** Takes a slot for the endpoint, or false when it has its limit open. */
  enter(endpointId: string): boolean;
  /** Gives the slot back, with how long the request took. */
  leave(endpointId: string, durationMs: number): void;
  /** How long a delivery that found the endpoint full waits before it is tried again, ms. */
  deferral(endpointId: string, random: number): number;
}

/** The shortest wait of a deferred delivery. */
const MIN_DEFERRAL_MS = 200;
/**
 * Recent average request time from which an endpoint counts as slow. An endpoint not yet timed
 * counts as slow: it gets the small limit until its first answers show it is quick.
 */
export const SLOW_MS = 1000;

export function createEndpointLoads(options: { slowLimit: number; concurrency: number }): EndpointLoads {
  const loads = new Map<string, Load>();
  const fastLimit = Math.max(options.slowLimit, Math.ceil(options.concurrency / 2));
  const limitOf = (load: Load) => (load.avgMs >= SLOW_MS ? options.slowLimit : fastLimit);
  const loadOf = (id: string) => {
    let load = loads.get(id);
    if (!load) {
      load = { open: 0, deferred: 0, avgMs: SLOW_MS };
      loads.set(id, load);
    }
    return load;
  };
  // An endpoint's recent request time is kept while it is idle; only a very long list drops the idle ones.
  const trim = () => {
    if (loads.size <= 50_000) return;
    for (const [id, load] of loads) if (load.open === 0 && load.deferred === 0) loads.delete(id);
  };
  return {
    enter(id) {
      const load = loadOf(id);
      if (load.open >= limitOf(load)) return false;
      load.open += 1;
      return true;
    },
    leave(id, durationMs) {
      const load = loadOf(id);
      load.open = Math.max(0, load.open - 1);
      load.avgMs = 0.8 * load.avgMs + 0.2 * durationMs;
      trim();
    },
    deferral(id, random) {
      const load = loadOf(id);
      load.deferred += 1;
      const rounds = Math.ceil(load.deferred / limitOf(load));
      const wait = Math.round(Math.max(MIN_DEFERRAL_MS, load.avgMs) * rounds * (1 + 0.2 * random));
      // Counted as waiting until it is due again; the timer never keeps the process alive.
      setTimeout(() => {
        load.deferred -= 1;
      }, wait).unref();
      return wait;
    },
  };
}
