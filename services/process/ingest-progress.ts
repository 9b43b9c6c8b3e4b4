/**
 * How many of a load's rows to show as done. A file is read twice: validating counts for the
 * first half of its rows, sending for the second. A file's rows count in full only once its job
 * has finished (its rows searchable): a file that has sent everything but still waits for the
 * shared refresh stays one row short, so rows never stand at 100% while files do not.
 */
export interface JobProgressEvent {
  phase?: string;
  rows?: number;
  of?: number;
}

export function rowsInFlight(event: JobProgressEvent): number {
  const rows = event.rows ?? 0;
  if (event.phase === 'indexing') {
    const of = event.of ?? 0;
    return Math.max(0, Math.min(Math.round((of + rows) / 2), of - 1));
  }
  return Math.floor(rows / 2);
}

export class RowsProgress {
  private readonly inFlight = new Map<string, number>();
  private finishedRows = 0;
  filesDone = 0;

  constructor(readonly files: number) {}

  onEvent(jobId: string, event: JobProgressEvent): void {
    this.inFlight.set(jobId, rowsInFlight(event));
  }

  onFinished(jobId: string, rowsRead: number | undefined): void {
    this.inFlight.delete(jobId);
    this.finishedRows += rowsRead ?? 0;
    this.filesDone++;
  }

  get rows(): number {
    let n = this.finishedRows;
    for (const v of this.inFlight.values()) n += v;
    return n;
  }

  get detail(): string {
    return `${this.filesDone}/${this.files} files`;
  }
}
