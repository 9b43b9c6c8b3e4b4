/**
 * Dependency checks for /healthz. Each check races a timer so one hanging
 * dependency cannot hold the answer past the deadline (the issue asks for an
 * answer within 2 s).
 */
export type Check = () => Promise<void>;
export type CheckResult = 'ok' | string;

export async function runCheck(check: Check, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([
      check().then(
        () => 'ok' as const,
        (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed',
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export async function runChecks<K extends string>(
  checks: Record<K, Check>,
  timeoutMs: number,
): Promise<{ healthy: boolean; results: Record<K, CheckResult> }> {
  const names = Object.keys(checks) as K[];
  const values = await Promise.all(names.map((n) => runCheck(checks[n], timeoutMs)));
  const results = Object.fromEntries(names.map((n, i) => [n, values[i]])) as Record<K, CheckResult>;
  return { healthy: values.every((v) => v === 'ok'), results };
}
