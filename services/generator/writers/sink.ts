import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { countyHolderName } from '../../domain/county-facts.ts';
import type { CertificateRecord } from '../../domain/records.ts';
import type { RegistryCounty } from '../../domain/registry.ts';

/**
 * Batches small strings into ~64 KB writes and waits for 'drain' when the
 * Writable is full, so a writer holds one batch, never the whole file. Rejects
 * if the Writable errors while we wait. Does not end `out`: the caller owns it.
 */
export class Sink {
  private buf = '';
  constructor(
    private readonly out: Writable,
    private readonly batchChars = 1 << 16,
  ) {}

  async push(text: string): Promise<void> {
    this.buf += text;
    if (this.buf.length >= this.batchChars) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.buf.length === 0) return;
    const ok = this.out.write(this.buf);
    this.buf = '';
    if (!ok) await once(this.out, 'drain');
  }
}

const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** One CSV field; quoted when it must be, or always. */
export function csvField(value: string, alwaysQuote = false): string {
  if (alwaysQuote || NEEDS_QUOTES.test(value)) return `"${value.replace(/"/g, '""')}"`;
  return value;
}

/**
 * Exports leave the holder blank when the county holds the certificate (struck
 * at the sale, or not sold yet); build-certificate fills the county's name back
 * in. Any other holder name is written as it is.
 */
export function holderCell(r: CertificateRecord, county: RegistryCounty): string {
  const countyHeld = r.struck_to_county || r.status === 'available' || r.status === 'advertised';
  return countyHeld && r.holder_name === countyHolderName(county.name) ? '' : r.holder_name;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '|': '\\|' };
const TAB_SPECIALS = /[\\\n\r\t]/g;
const PIPE_SPECIALS = /[\\\n\r|]/g;

/** Backslash-escapes what would break a tab- or pipe-separated line; indexer/adapters/read-lines.ts splitEscaped undoes it. */
export function escapeField(value: string, sep: '\t' | '|'): string {
  const re = sep === '\t' ? TAB_SPECIALS : PIPE_SPECIALS;
  re.lastIndex = 0;
  return re.test(value) ? value.replace(re, (c) => ESCAPES[c] ?? c) : value;
}
