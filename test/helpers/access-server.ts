/**
 * A real API process for the multi-process access tests: the app with the probe
 * route (test/helpers/access.ts) on the environment's DATABASE_PATH and REDIS_URL, on
 * a free port. Prints "listening <url>" once ready; SIGTERM closes it.
 */
import { loadConfig } from '../../services/config.ts';
import { openRuntime } from '../../services/process/runtime.ts';
import { buildProbeApp } from './access.ts';

const config = loadConfig();
const runtime = await openRuntime(config);
const app = await buildProbeApp(runtime);
// Port 0 (any free one) unless PROBE_PORT says otherwise; the config's PORT must be >= 1.
const url = await app.listen({ host: '127.0.0.1', port: Number(process.env.PROBE_PORT ?? 0) });
process.stdout.write(`listening ${url}\n`);
process.once('SIGTERM', () => {
  void app
    .close()
    .then(() => runtime.close())
    .then(() => process.exit(0));
});
