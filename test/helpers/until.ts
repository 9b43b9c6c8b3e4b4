/**
 * Polls until `check` is true; fails with `what` after timeoutMs. For waiting on an event the test
 * cannot subscribe to (a row written, a log line printed, a request received) instead of sleeping
 * a fixed time: it returns as soon as the event is there, and says what never came.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
