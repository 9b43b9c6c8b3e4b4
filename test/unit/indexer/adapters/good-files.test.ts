import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { CertificateInput } from '../../../../indexer/adapters/types.ts';
import { buildCertificate } from '../../../../indexer/certificates/build-certificate.ts';
import type { CertificateRecord } from '../../../../services/domain/records.ts';
import { GOOD_FILES, recordsFixture } from './good-files.cases.ts';
import { buildCtx, readFixture } from './sample-records.ts';

/** One row of a good file: where it starts, what the adapter reads, the record it builds. */
interface Expected {
  line: number;
  input: CertificateInput;
  record: CertificateRecord;
}

const expectedOf = (format: string): Expected[] => JSON.parse(readFileSync(recordsFixture(format), 'utf8'));

describe.each(GOOD_FILES)('$adapter.format: good file', ({ adapter, file, vendor }) => {
  const expected = expectedOf(adapter.format);

  it('reads every row, at its line', async () => {
    const rows = await readFixture(adapter, file);
    expect(rows.map((r) => r.line)).toEqual(expected.map((e) => e.line));
  });

  it.each(expected)('line $line: the canonical input and record of fixtures/records', async ({ line, input, record }) => {
    const row = (await readFixture(adapter, file)).find((r) => r.line === line)!;
    const adapted = adapter.toInput(row);
    expect(adapted).toEqual({ input, reasons: [] });
    expect(buildCertificate(adapted.input, adapted.reasons, buildCtx(vendor))).toEqual({ ok: true, record });
  });
});
