/**
 * How an /api/mcp answer is written, from the client's Accept header:
 * one JSON body or an event stream. Streamable HTTP clients list both; our tools
 * answer once and never stream progress, so a tie goes to the single JSON body
 * (no buffering proxies to defeat, nothing to keep open). A client that prefers
 * the stream (a higher q) or accepts only the stream gets the stream; a header
 * admitting neither gets null (406). No header at all accepts anything.
 */
export type ResponseMode = 'json' | 'sse';

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [media, ...params] = part.trim().split(';');
    const [type, subtype] = (media ?? '').trim().toLowerCase().split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k?.trim().toLowerCase() === 'q') {
        const n = Number(v);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** The q of the most specific range matching type/subtype (RFC 9110 12.5.1); 0 when none does. */
function quality(ranges: MediaRange[], type: string, subtype: string): number {
  let best: { specificity: number; q: number } | undefined;
  for (const r of ranges) {
    const specificity =
      r.type === type && r.subtype === subtype
        ? 2
        : r.type === type && r.subtype === '*'
          ? 1
          : r.type === '*' && r.subtype === '*'
            ? 0
            : -1;
    if (specificity < 0) continue;
    if (!best || specificity > best.specificity) best = { specificity, q: r.q };
  }
  return best?.q ?? 0;
}

export function responseMode(accept: string | undefined): ResponseMode | null {
  if (accept === undefined || accept.trim() === '') return 'json';
  const ranges = parseAccept(accept);
  const json = quality(ranges, 'application', 'json');
  const sse = quality(ranges, 'text', 'event-stream');
  if (json === 0 && sse === 0) return null;
  return json >= sse ? 'json' : 'sse';
}
