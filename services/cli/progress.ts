import cliProgress from 'cli-progress';

/**
 * Progress for long runs: a live bar (rows, rows/s) on a terminal, and a plain
 * log line every few seconds otherwise (CI logs, pipes), always on stderr.
 */
export interface Progress {
  update(done: number, detail?: string): void;
  stop(): void;
}

export function createProgress(label: string, total: number, unit = 'rows'): Progress {
  const started = Date.now();
  const rate = (done: number) => Math.round(done / Math.max((Date.now() - started) / 1000, 0.001));
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s | {detail}`,
        stream: process.stderr,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(Math.max(total, 1), 0, { rate: 0, detail: '' });
    return {
      update: (done, detail = '') => bar.update(Math.min(done, Math.max(total, 1)), { rate: rate(done), detail }),
      stop: () => bar.stop(),
    };
  }
  let lastLine = 0;
  return {
    update(done, detail = '') {
      const now = Date.now();
      if (now - lastLine < 5000 && done < total) return;
      lastLine = now;
      process.stderr.write(`${label}: ${done}/${total} ${unit}, ${rate(done)} ${unit}/s${detail ? `, ${detail}` : ''}\n`);
    },
    stop() {},
  };
}
