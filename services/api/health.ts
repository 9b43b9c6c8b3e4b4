/**
 * Dependency checks for /healthz. Each check races a timer so one hanging
 * dependency cannot hold the answer past the deadline: /healthz answers within
 * 2 s even while a dependency hangs.
 *
 * /healthz answers without a key, so it says only ok or unavailable per
 * dependency: a client's error text names hosts and ports, which are not for the public.
 * The reason goes to the log instead, returned here beside the public answer.
 */
export type Check = () => Promise<void>;
export type CheckResult = { ok: true } | { ok: false; reason: string };
export type PublicCheck = 'ok' | 'unavailable';

export async function runCheck(check: Check, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([
      check().then(
        () => ({ ok: true }) as const,
        (err: unknown) => ({ ok: false, reason: (err instanceof Error ? err.message : String(err)).split('\n')[0] || 'failed' }) as const,
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
): Promise<{ healthy: boolean; results: Record<K, PublicCheck>; failures: Partial<Record<K, string>> }> {
  const names = Object.keys(checks) as K[];
  const values = await Promise.all(names.map((n) => runCheck(checks[n], timeoutMs)));
  const results = {} as Record<K, PublicCheck>;
  const failures: Partial<Record<K, string>> = {};
  names.forEach((name, i) => {
    const v = values[i]!;
    results[name] = v.ok ? 'ok' : 'unavailable';
    if (!v.ok) failures[name] = v.reason;
  });
  return { healthy: values.every((v) => v.ok), results, failures };
}
