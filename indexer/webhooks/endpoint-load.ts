/**
 * How many requests this worker process has open to each endpoint and to each client's
 * endpoints together, so neither one slow receiver nor one client can take every delivery slot.
 *
 * Per endpoint: one whose recent requests took SLOW_MS or more on average (or not yet timed)
 * may have WEBHOOK_ENDPOINT_MAX_IN_FLIGHT open; any other may use up to half the worker's slots
 * (never less than that limit), since it gives each slot back quickly: a busy firehose on a
 * healthy receiver is not throttled.
 *
 * Per client: its slow endpoints together may have WEBHOOK_CLIENT_MAX_IN_FLIGHT open, and all
 * its endpoints together half the worker's slots. A client may own 16 endpoints; with only the
 * endpoint limit, sixteen endpoints on a receiver that never answers held every slot of the
 * worker for the whole timeout, and everyone else's deliveries waited behind them. Counting the
 * slow endpoints' requests together holds such a client to 16 slots, well under the worker's
 * 128, while a client whose receiver answers quickly keeps the throughput a firehose needs
 * (a hard 16 for everyone cut a healthy firehose to a few hundred deliveries a second). A
 * request counts as slow or quick by its endpoint's average when it is sent.
 *
 * A delivery that finds its endpoint or its client at the limit goes back to the queue for about
 * as long as the deliveries already waiting for that endpoint (or client) will take: the n-th
 * one waiting sits out ceil(n / limit) of the recent request times, so a large backlog behind a
 * slow receiver comes back about once, in order, instead of spinning through the queue every
 * few hundred milliseconds.
 */

interface Load {
  open: number;
  /** Of those, requests to endpoints that were slow when sent (a client's count). */
  slowOpen: number;
  /** Deliveries sent back to the queue and not yet due again. */
  deferred: number;
  /** Recent request time (exponential moving average), ms. */
  avgMs: number;
}

/** A slot taken for one request; leave() gives it back with how long the request took. */
export interface Slot {
  leave(durationMs: number): void;
}

export interface EndpointLoads {
  /** Takes a slot for the endpoint and its client, or null (taking nothing) when either is at its limit. */
  enter(endpointId: string, clientId: string): Slot | null;
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
  /** WEBHOOK_CONCURRENCY: a quick endpoint, and a client in all, may use half. */
  concurrency: number;
  /** WEBHOOK_CLIENT_MAX_IN_FLIGHT: one client's open requests to its slow endpoints, together. */
  clientLimit: number;
}

export function createEndpointLoads(options: LoadLimits): EndpointLoads {
  const endpoints = new Map<string, Load>();
  const clients = new Map<string, Load>();
  const half = Math.ceil(options.concurrency / 2);
  const fastLimit = Math.max(options.slowLimit, half);
  const clientTotal = Math.max(options.clientLimit, half);
  const isSlow = (load: Load) => load.avgMs >= SLOW_MS;
  const endpointLimit = (load: Load) => (isSlow(load) ? options.slowLimit : fastLimit);
  const loadOf = (loads: Map<string, Load>, id: string) => {
    let load = loads.get(id);
    if (!load) {
      load = { open: 0, slowOpen: 0, deferred: 0, avgMs: SLOW_MS };
      loads.set(id, load);
    }
    return load;
  };
  // Recent request times are kept while idle; only a very long list drops the idle ones.
  const trim = (loads: Map<string, Load>) => {
    if (loads.size <= 50_000) return;
    for (const [id, load] of loads) if (load.open === 0 && load.deferred === 0) loads.delete(id);
  };
  const clientFull = (endpoint: Load, client: Load) =>
    client.open >= clientTotal || (isSlow(endpoint) && client.slowOpen >= options.clientLimit);
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
      if (endpoint.open >= endpointLimit(endpoint) || clientFull(endpoint, client)) return null;
      const slow = isSlow(endpoint);
      endpoint.open += 1;
      client.open += 1;
      if (slow) client.slowOpen += 1;
      let left = false;
      return {
        leave(durationMs) {
          if (left) return;
          left = true;
          endpoint.open = Math.max(0, endpoint.open - 1);
          client.open = Math.max(0, client.open - 1);
          if (slow) client.slowOpen = Math.max(0, client.slowOpen - 1);
          for (const load of [endpoint, client]) load.avgMs = 0.8 * load.avgMs + 0.2 * durationMs;
          trim(endpoints);
          trim(clients);
        },
      };
    },
    deferral(endpointId, clientId, random) {
      const endpoint = loadOf(endpoints, endpointId);
      const client = loadOf(clients, clientId);
      // The client's share is what is full when its endpoints together are at the client's limit.
      if (clientFull(endpoint, client)) return defer(client, client.open >= clientTotal ? clientTotal : options.clientLimit, random);
      return defer(endpoint, endpointLimit(endpoint), random);
    },
  };
}
