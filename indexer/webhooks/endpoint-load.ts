/**
 * How many requests this worker process has open to each endpoint, so one slow receiver cannot
 * take every delivery slot (WEBHOOK_ENDPOINT_MAX_IN_FLIGHT). A receiver that answers fast (under
 * FAST_MS on recent average) holds each slot only briefly and may have four times the limit open:
 * a busy firehose on a fast receiver is not throttled. A delivery to an endpoint at its
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

/** The shortest wait of a deferred delivery; also the request time assumed for an endpoint not yet timed. */
const MIN_DEFERRAL_MS = 200;
/** Recent average request time under which an endpoint counts as fast. */
export const FAST_MS = 100;
const FAST_FACTOR = 4;

export function createEndpointLoads(maxInFlight: number): EndpointLoads {
  const loads = new Map<string, Load>();
  const loadOf = (id: string) => {
    let load = loads.get(id);
    if (!load) {
      load = { open: 0, deferred: 0, avgMs: MIN_DEFERRAL_MS };
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
      if (load.open >= (load.avgMs < FAST_MS ? maxInFlight * FAST_FACTOR : maxInFlight)) return false;
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
      const rounds = Math.ceil(load.deferred / (load.avgMs < FAST_MS ? maxInFlight * FAST_FACTOR : maxInFlight));
      const wait = Math.round(Math.max(MIN_DEFERRAL_MS, load.avgMs) * rounds * (1 + 0.2 * random));
      // Counted as waiting until it is due again; the timer never keeps the process alive.
      setTimeout(() => {
        load.deferred -= 1;
      }, wait).unref();
      return wait;
    },
  };
}
