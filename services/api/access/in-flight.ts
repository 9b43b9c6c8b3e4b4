/**
 * Requests each client has in flight in this process (so one key cannot trickle bytes
 * into any number of open requests): a request
 * counts from the moment its key is known until its response closes (sent, or the
 * connection dropped or timed out). With the per-minute window taken before any
 * body is read, this bounds what one key can hold open at once, whatever its RPM.
 * Per process, like the room of access.ts: a second process admits its own share.
 */
export interface InFlight {
  /** Counts one more request for the client; false (nothing counted) when it already has `limit`. */
  enter(clientId: string): boolean;
  leave(clientId: string): void;
  readonly limit: number;
}

export function createInFlight(limit: number): InFlight {
  const open = new Map<string, number>();
  return {
    limit,
    enter(clientId) {
      const n = open.get(clientId) ?? 0;
      if (n >= limit) return false;
      open.set(clientId, n + 1);
      return true;
    },
    leave(clientId) {
      const n = open.get(clientId) ?? 0;
      // Deleted at zero, so the map holds only clients with something in flight.
      if (n <= 1) open.delete(clientId);
      else open.set(clientId, n - 1);
    },
  };
}
