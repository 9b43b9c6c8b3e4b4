import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';
import { redisConnection } from '../../indexer/queue.ts';
import { createWebhookQueue } from '../../indexer/webhooks/queue.ts';
import type { Config } from '../../services/config.ts';
import type { Runtime } from '../../services/process/runtime.ts';
import { dropScratch } from './drop-scratch.ts';

/**
 * What a webhook benchmark leaves behind, taken away: the worker (15 s to drain, then killed),
 * the receivers, the delivery queue's jobs and the scratch data set.
 */
export async function tearDownWebhookBench(
  worker: ChildProcess | undefined,
  servers: Server[],
  runtime: Runtime,
  config: Config,
  prefix: string,
  dir: string,
): Promise<void> {
  if (worker && worker.exitCode === null) {
    const exited = new Promise((r) => worker.once('exit', r));
    worker.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    worker.kill('SIGKILL');
  }
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  const connection = redisConnection(config);
  const queue = createWebhookQueue(config, connection);
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  connection.disconnect();
  await dropScratch(runtime, config, prefix, dir);
  await runtime.close();
}
