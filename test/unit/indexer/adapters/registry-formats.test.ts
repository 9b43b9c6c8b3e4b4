import { Writable } from 'node:stream';
import { setImmediate as tick } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { adapterFor, FORMATS } from '../../../../indexer/adapters/index.ts';
import { WRITER_FORMATS, writerFor } from '../../../../services/generator/writers/index.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import { ctx, registry, sampleRecords } from './sample-records.ts';

describe('format lookups', () => {
  it('has an adapter and a writer for every format platforms.json names', () => {
    const named = new Set(registry.counties.map((c) => registry.channel(c)?.format).filter((f) => f !== undefined));
    for (const p of registry.platforms) named.add(p.format);
    expect([...named].sort()).toEqual([...FORMATS].sort());
    expect([...WRITER_FORMATS].sort()).toEqual([...FORMATS].sort());
    for (const f of FORMATS) {
      expect(adapterFor(f)?.format).toBe(f);
      expect(writerFor(f)?.format).toBe(f);
    }
    expect(adapterFor('xlsx')).toBeUndefined();
    expect(writerFor('xlsx')).toBeUndefined();
  });
});

describe('writers respect backpressure', () => {
  it.each(FORMATS)('%s never lets a slow destination buffer more than one batch', async (format) => {
    const samples = sampleRecords('x');
    const n = 20_000;
    let produced = 0;
    let written = 0;
    let maxAhead = 0;
    // A lazy source: how far it runs ahead of the destination shows whether the writer waits for 'drain'.
    function* records(): Generator<CertificateRecord> {
      for (let i = 0; i < n; i++) {
        produced++;
        maxAhead = Math.max(maxAhead, produced - written);
        yield { ...samples[i % samples.length]!, certificate_number: `2024-${i}` };
      }
    }
    const slow = new Writable({
      highWaterMark: 16 * 1024,
      write(chunk: Buffer, _enc, done) {
        written += chunk.toString('utf8').split('\n').length - 1;
        tick().then(() => done());
      },
    });
    const count = await writerFor(format)!.write(records(), slow, ctx);
    expect(count).toBe(n);
    // one 64 KB batch plus the stream's own 16 KB buffer is a few hundred rows, not the file
    expect(maxAhead).toBeLessThan(1_500);
  });
});
