import cliProgress from 'cli-progress';

/**
 * Progress for long runs: a live bar (rows, rows/s) on a terminal, and a plain
 * log line every few seconds otherwise (CI logs, pipes), always on stderr.
 * Every bar has a true total (setTotal when it is learnt late) and finish() ends it at 100%.
 */
export interface Progress {
  update(done: number, detail?: string): void;
  /** The total, when it is known only once the work has started (a reindex task's). */
  setTotal(total: number): void;
  /** The work is done: show 100% and stop. */
  finish(detail?: string): void;
  /** Stop where it stands (the work failed or was interrupted). */
  stop(): void;
}

/** The plain line printed without a terminal: "label: 5/10 files, 2 files/s, detail". */
export function progressLine(label: string, done: number, total: number, unit: string, rate: number, detail = ''): string {
  return `${label}: ${done}/${total} ${unit}, ${rate} ${unit}/s${detail ? `, ${detail}` : ''}`;
}

export function createProgress(label: string, initialTotal: number, unit = 'rows', stream: NodeJS.WriteStream = process.stderr): Progress {
  const started = Date.now();
  let total = initialTotal;
  let done = 0;
  const rate = (n: number) => Math.round(n / Math.max((Date.now() - started) / 1000, 0.001));
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {rate} ${unit}/s{detail}`,
        stream,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(Math.max(total, 1), 0, { rate: 0, detail: '' });
    const payload = (detail: string) => ({ rate: rate(done), detail: detail ? ` | ${detail}` : '' });
    return {
      update: (n, detail = '') => {
        done = Math.min(n, Math.max(total, 1));
        bar.update(done, payload(detail));
      },
      setTotal: (n) => {
        total = n;
        bar.setTotal(Math.max(n, 1));
      },
      finish: (detail = '') => {
        done = Math.max(total, 1);
        bar.update(done, payload(detail));
        bar.stop();
      },
      stop: () => bar.stop(),
    };
  }
  let lastLine = 0;
  const line = (n: number, detail: string) => stream.write(`${progressLine(label, n, total, unit, rate(n), detail)}\n`);
  return {
    update(n, detail = '') {
      done = n;
      const now = Date.now();
      if (now - lastLine < 5000) return;
      lastLine = now;
      line(n, detail);
    },
    setTotal(n) {
      total = n;
    },
    finish(detail = '') {
      done = total;
      line(total, detail);
    },
    stop() {},
  };
}
