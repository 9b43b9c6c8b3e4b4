import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.ts';

const bin = fileURLToPath(new URL('../../bin/taxcert.js', import.meta.url));

/** The Node flags of bin/taxcert.js's shebang (its heap bounds), for a run with flags of our own added. */
export function shebangFlags(): string[] {
  const first = readFileSync(bin, 'utf8').split('\n', 1)[0] ?? '';
  return first.split(/\s+/).filter((w) => w.startsWith('--'));
}

export interface StackProcess {
  child: ChildProcess;
  pid: number;
  /** The API's base URL. */
  url: string;
  /** SIGTERM, then waits for the process to exit (SIGKILL after 30 s). */
  stop(): Promise<void>;
}

/**
 * Runs a taxcert process the way an operator does (`npm start` is `taxcert start`; or
 * `taxcert worker`, `taxcert serve`) as a child, its stderr (the logs) to `logFile`. The
 * child runs in `cwd`, so what it writes relative to its working folder (`npm start`'s
 * data/stack.json) lands there, not in the checkout. With `api`, waits for /healthz.
 */
export async function startTaxcert(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; logFile: string; api: boolean; nodeFlags?: string[] },
): Promise<StackProcess> {
  mkdirSync(options.cwd, { recursive: true });
  const port = await freePort();
  const log = createWriteStream(options.logFile, { flags: 'a' });
  await once(log, 'open');
  const spawnOptions = {
    env: { ...options.env, PORT: String(port) },
    cwd: options.cwd,
    stdio: ['ignore', 'ignore', log] as ['ignore', 'ignore', typeof log],
  };
  // Spawned as the executable, so it runs with its shebang's heap bounds as in production; extra
  // flags (a CPU profile) need node itself, given the same bounds.
  const child = options.nodeFlags
    ? spawn(process.execPath, [...shebangFlags(), ...options.nodeFlags, bin, ...args], spawnOptions)
    : spawn(bin, args, spawnOptions);
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
  };
  if (options.api) {
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`taxcert ${args.join(' ')} exited with ${child.exitCode}; see ${options.logFile}`);
      try {
        if ((await fetch(`${url}/healthz`)).status === 200) break;
      } catch {
        // not listening yet
      }
      if (i > 240) {
        await stop();
        throw new Error(`taxcert ${args.join(' ')} did not answer /healthz within 60 s; see ${options.logFile}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return { child, pid: child.pid!, url, stop };
}

/** Runs a taxcert command to its end; resolves with its stdout, rejects on a non-zero exit. */
export async function runTaxcert(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; onSpawn?: (pid: number) => void },
): Promise<string> {
  const child = spawn(bin, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'inherit'] });
  options.onSpawn?.(child.pid!);
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => {
    out += s;
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`taxcert ${args.join(' ')} exited with ${code}`);
  return out;
}
