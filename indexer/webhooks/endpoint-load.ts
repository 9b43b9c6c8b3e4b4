/**
 * How many requests this worker process has open to each endpoint and to each client's
 * endpoints together, so neither one slow receiver nor one client can take every delivery slot.
 *
 * Per endpoint: one whose recent requests took SLOW_MS or more on average may have
 * WEBHOOK_ENDPOINT_MAX_IN_FLIGHT open; any other may use up to half the worker's slots (never
 * less than that limit), since it gives each slot back quickly: a busy firehose on a healthy
 * receiver is not throttled by its endpoint's limit.
 *
 * Per client: WEBHOOK_CLIENT_MAX_IN_FLIGHT across all its endpoints, whatever their speed. A
 * client may own many endpoints; with only the endpoint limit, sixteen endpoints on a receiver
 * that never answers held every slot of the worker for the whole timeout, and everyone else's
 * deliveries waited behind them. The client's share is well under the worker's slots, so the
 * rest always go to others.
 *
 * A delivery that finds its endpoint or its client at the limit goes back to the queue for about
 * as long as the deliveries already waiting for that endpoint (or client) will take: the n-th
 * one waiting sits out ceil(n / limit) of the recent request times, so a large backlog behind a
 * slow receiver comes back about once, in order, instead of spinning through the queue every
 * few hundred milliseconds.
 */

interface Load {
  open: number;
  /** Deliveries sent back to the queue and not yet due again. */
  deferred: number;
  /** Recent request time (exponential moving average), ms. */
  avgMs: number;
}

export interface EndpointLoads {
  /** Takes a slot for the endpoint and its client, or false (taking neither) when either has its limit open. */
  enter(endpointId: string, clientId: string): boolean;
  /** Gives the slot back, with how long the request took. */
  leave(endpointId: string, clientId: string, durationMs: number): void;
  /** How long a delivery that found its endpoint or client full waits before it is tried again, ms. */
  deferral(endpointId: string, clientId: string, random: number): number;
}

/** The shortest wait of a deferred delivery. */
const MIN_DEFERRAL_MS = 200;
/**
 * Recent average request time from which an endpoint counts as slow. An endpoint not yet timed
 * counts as slow: it gets the small limit until its first answers show it is quick.
 */
export const SLOW_MS = 1000;

export interface LoadLimits {
  /** WEBHOOK_ENDPOINT_MAX_IN_FLIGHT: a slow endpoint's open requests. */
  slowLimit: number;
  /** WEBHOOK_CONCURRENCY: a quick endpoint may use half. */
  concurrency: number;
  /** WEBHOOK_CLIENT_MAX_IN_FLIGHT: one client's open requests, all its endpoints together. */
  clientLimit: number;
}

export function createEndpointLoads(options: LoadLimits): EndpointLoads {
  const endpoints = new Map<string, Load>();
  const clients = new Map<string, Load>();
  const fastLimit = Math.max(options.slowLimit, Math.ceil(options.concurrency / 2));
  const endpointLimit = (load: Load) => (load.avgMs >= SLOW_MS ? options.slowLimit : fastLimit);
  const loadOf = (loads: Map<string, Load>, id: string) => {
    let load = loads.get(id);
    if (!load) {
      load = { open: 0, deferred: 0, avgMs: SLOW_MS };
      loads.set(id, load);
    }
    return load;
  };
  // Recent request times are kept while idle; only a very long list drops the idle ones.
  const trim = (loads: Map<string, Load>) => {
    if (loads.size <= 50_000) return;
    for (const [id, load] of loads) if (load.open === 0 && load.deferred === 0) loads.delete(id);
  };
  const defer = (load: Load, limit: number, random: number) => {
    load.deferred += 1;
    const rounds = Math.ceil(load.deferred / limit);
    const wait = Math.round(Math.max(MIN_DEFERRAL_MS, load.avgMs) * rounds * (1 + 0.2 * random));
    // Counted as waiting until it is due again; the timer never keeps the process alive.
    setTimeout(() => {
      load.deferred -= 1;
    }, wait).unref();
    return wait;
  };
  return {
    enter(endpointId, clientId) {
      const endpoint = loadOf(endpoints, endpointId);
      const client = loadOf(clients, clientId);
      if (endpoint.open >= endpointLimit(endpoint) || client.open >= options.clientLimit) return false;
      endpoint.open += 1;
      client.open += 1;
      return true;
    },
    leave(endpointId, clientId, durationMs) {
      for (const [loads, id] of [
        [endpoints, endpointId],
        [clients, clientId],
      ] as const) {
        const load = loadOf(loads, id);
        load.open = Math.max(0, load.open - 1);
        load.avgMs = 0.8 * load.avgMs + 0.2 * durationMs;
        trim(loads);
      }
    },
    deferral(endpointId, clientId, random) {
      const client = loadOf(clients, clientId);
      // The client's share is what is full when its endpoints together are at the client's limit.
      if (client.open >= options.clientLimit) return defer(client, options.clientLimit, random);
      const endpoint = loadOf(endpoints, endpointId);
      return defer(endpoint, endpointLimit(endpoint), random);
    },
  };
}
