import { Agent, request } from 'node:http';

/**
 * One call to the stack's API over plain HTTP with a keep-alive agent (as the engine client
 * talks to the engine; Node's fetch costs more a request), its body read whole: the status, the
 * parsed answer and the time from sending to the last byte.
 */

export const apiAgent = new Agent({ keepAlive: true, maxSockets: 32 });

export function apiCall(
  url: string,
  key: string,
  options: { method?: 'GET' | 'POST'; body?: unknown } = {},
): Promise<{ status: number; body: unknown; ms: number }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (payload !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(url, { method: options.method ?? 'GET', headers, agent: apiAgent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const ms = performance.now() - t0;
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text for the error message
        }
        resolve({ status: res.statusCode ?? 0, body, ms });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}
