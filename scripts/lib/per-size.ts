import { spawn } from 'node:child_process';
import { once } from 'node:events';

/**
 * `--sizes 1000000,3000000,10000000` for a benchmark script: the script runs once per size, one
 * after another, as a child process of its own (`--certificates N` and the other arguments), so
 * nothing one size leaves in memory is counted at the next. Each child prints one line
 * `SUMMARY {json}` last; the parent returns those, in order, to print side by side.
 */
export async function runPerSize(script: string, sizes: number[], argv: string[]): Promise<Record<string, unknown>[]> {
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--sizes' || argv[i] === '--certificates') i++;
    else if (!argv[i]!.startsWith('--sizes=') && !argv[i]!.startsWith('--certificates=')) rest.push(argv[i]!);
  }
  const out: Record<string, unknown>[] = [];
  for (const n of sizes) {
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--certificates', String(n), ...rest], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let summary: Record<string, unknown> | undefined;
    let buffered = '';
    child.stdout!.setEncoding('utf8').on('data', (text: string) => {
      process.stdout.write(text);
      buffered += text;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines)
        if (line.startsWith('SUMMARY ')) summary = JSON.parse(line.slice('SUMMARY '.length)) as Record<string, unknown>;
    });
    const [code] = (await once(child, 'exit')) as [number | null];
    if (code !== 0) throw new Error(`${script} --certificates ${n} exited with ${code}`);
    if (summary) out.push(summary);
  }
  return out;
}

/** One row per figure, one column per size: how each figure moves as N grows. */
export function printBySize(summaries: Record<string, unknown>[]): void {
  const figures = [...new Set(summaries.flatMap((s) => Object.keys(s)))].filter((k) => k !== 'certificates');
  console.table(Object.fromEntries(figures.map((f) => [f, Object.fromEntries(summaries.map((s) => [`N=${s.certificates}`, s[f]]))])));
}
