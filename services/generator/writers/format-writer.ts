import type { Writable } from 'node:stream';
import type { FileContext } from '../../formats/file-context.ts';
import type { CertificateRecord } from '../../domain/records.ts';
import { Sink } from './sink.ts';

/** The generator's side of a format: canonical records out as the platform would export them. */
export interface FormatWriter {
  readonly format: string;
  /** Writes the whole file (header, rows, trailer) without ending `out`; resolves with the number of rows written. */
  write(records: Iterable<CertificateRecord> | AsyncIterable<CertificateRecord>, out: Writable, ctx: FileContext): Promise<number>;
}

/** One file of a format, laid out for its county and year: the text before the rows, each row's text, the text after. */
export interface FileLayout {
  header?: string;
  /** One record's text, line break(s) included; throws when the record cannot be written in the format. */
  row(record: CertificateRecord): string;
  /** Given the number of rows written, for formats whose trailer counts them. */
  trailer?(rows: number): string;
}

/**
 * A format's writer from its layout. The streaming loop is the same for every format
 * (batched through a Sink, waiting for 'drain', counting rows), so it is written once
 * here and each format says only what its lines hold.
 */
export function formatWriter(format: string, layoutFor: (ctx: FileContext) => FileLayout): FormatWriter {
  return {
    format,
    async write(records, out, ctx) {
      const layout = layoutFor(ctx);
      const sink = new Sink(out);
      if (layout.header !== undefined) await sink.push(layout.header);
      let n = 0;
      for await (const r of records) {
        await sink.push(layout.row(r));
        n++;
      }
      if (layout.trailer) await sink.push(layout.trailer(n));
      await sink.flush();
      return n;
    },
  };
}
