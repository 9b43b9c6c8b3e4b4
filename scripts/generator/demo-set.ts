/** The options of the demo set shipped in fixtures/demo (scripts/make-demo-fixtures.ts writes it; a test keeps it current). */
export const DEMO_SET = { certificates: 1500, seed: 20261122, today: '2026-11-22' } as const;
