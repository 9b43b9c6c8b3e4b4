/**
 * The options of the demo set shipped in fixtures/demo, loaded by the first `npm start`.
 * `npm run demo:write` (scripts/make-demo-fixtures.ts) writes it; a test keeps it current.
 * 55,000 certificates (enough for the holder and bid-rate analytics to show a real market:
 * at least 50,000) over the eight certificate-level counties (six large, Franklin and Gulf
 * small) and eleven tax years, gzipped: 4.2 MB committed (the limit is 5 MB).
 */
export const DEMO_SET = { certificates: 55_000, seed: 20261122, today: '2026-11-22', gzip: true } as const;
