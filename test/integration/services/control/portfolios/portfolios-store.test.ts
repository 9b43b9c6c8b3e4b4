// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../../../../services/control/billing/clients.ts';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import {
  addPositions,
  createPortfolio,
  deletePortfolio,
  deletePosition,
  listPortfolios,
  type NewPosition,
  PortfolioLimitError,
  portfolioOf,
  PositionLimitError,
  positionsOf,
  updatePortfolio,
} from '../../../../../services/control/portfolios/index.ts';
import { certificateId } from '../../../../../services/domain/ids.ts';
import { openTestControl } from '../../../../helpers/control.ts';
import { registry } from '../../../../helpers/registry.ts';

// The portfolio tables through their module, the same assertions on SQLite and PostgreSQL.
let sql: Sql;
beforeAll(async () => {
  sql = await openTestControl({ registry, label: 'portfolios' });
});
afterAll(async () => {
  await sql.close();
});

const client = async () => (await createClient(sql, { name: 'holder', plan: 'growth' })).id;
const line = (n: number, extra: Partial<NewPosition> = {}): NewPosition => ({
  certificate_id: certificateId('lee', 2023, String(n)),
  county_slug: 'lee',
  certificate_number: String(n),
  tax_year: 2023,
  acquired_on: null,
  acquired_amount_cents: null,
  note: null,
  ...extra,
});

describe('portfolio storage', () => {
  it('creates, reads only for its client, lists, updates, and deletes with its positions', async () => {
    const [a, b] = [await client(), await client()];
    const made = await createPortfolio(sql, { clientId: a, name: 'Lee 2023', followHolderGroup: null, limit: 5 });
    expect(made.id).toMatch(/^pf_[A-Za-z0-9_-]{16}$/);
    expect(made).toMatchObject({ client_id: a, name: 'Lee 2023', follow_holder_group: null });
    expect(await portfolioOf(sql, a, made.id)).toEqual(made);
    expect(await portfolioOf(sql, b, made.id)).toBeUndefined();
    expect((await listPortfolios(sql, a, { limit: 10, offset: 0 })).total).toBe(1);
    expect((await listPortfolios(sql, b, { limit: 10, offset: 0 })).total).toBe(0);

    expect(await updatePortfolio(sql, b, made.id, { name: 'theirs' })).toBe(false);
    expect(await updatePortfolio(sql, a, made.id, { followHolderGroup: 'grp_0123456789abcdef0123' })).toBe(true);
    expect(await portfolioOf(sql, a, made.id)).toMatchObject({ name: 'Lee 2023', follow_holder_group: 'grp_0123456789abcdef0123' });
    expect(await updatePortfolio(sql, a, made.id, { name: 'Lee' })).toBe(true);
    expect(await portfolioOf(sql, a, made.id)).toMatchObject({ name: 'Lee', follow_holder_group: 'grp_0123456789abcdef0123' });
    expect(await updatePortfolio(sql, a, made.id, { followHolderGroup: null })).toBe(true);
    expect((await portfolioOf(sql, a, made.id))!.follow_holder_group).toBeNull();

    await addPositions(sql, made.id, [line(1), line(2)], 10);
    expect(await deletePortfolio(sql, b, made.id)).toBe(false);
    expect(await deletePortfolio(sql, a, made.id)).toBe(true);
    expect(await deletePortfolio(sql, a, made.id)).toBe(false);
    expect(await positionsOf(sql, made.id)).toEqual([]);
    expect(await addPositions(sql, made.id, [line(3)], 10)).toBeUndefined();
  });

  it('refuses a portfolio past the limit', async () => {
    const a = await client();
    await createPortfolio(sql, { clientId: a, name: 'one', followHolderGroup: null, limit: 1 });
    await expect(createPortfolio(sql, { clientId: a, name: 'two', followHolderGroup: null, limit: 1 })).rejects.toBeInstanceOf(
      PortfolioLimitError,
    );
  });

  it('adds positions, reports duplicates of the portfolio and of the same call, and keeps the limit whole', async () => {
    const a = await client();
    const { id } = await createPortfolio(sql, { clientId: a, name: 'p', followHolderGroup: null, limit: 5 });
    const first = (await addPositions(sql, id, [line(1, { acquired_on: '2024-06-01', acquired_amount_cents: 123456, note: 'n' })], 5))!;
    expect(first[0]!.status).toBe('created');
    const held = first[0]!.status === 'created' ? first[0]!.position : undefined;
    expect(held!.id).toMatch(/^pos_[A-Za-z0-9_-]{16}$/);

    const out = (await addPositions(sql, id, [line(2), line(1), line(2), line(3)], 5, new Date(Date.now() + 1000)))!;
    expect(out.map((o) => o.status)).toEqual(['created', 'duplicate', 'duplicate', 'created']);
    expect(out[1]).toEqual({ status: 'duplicate', positionId: held!.id });
    expect(out[2]).toEqual({ status: 'duplicate', line: 0 });

    const stored = await positionsOf(sql, id);
    expect(stored).toHaveLength(3);
    // Ordered by created_at, then id.
    expect(stored[0]!.id).toBe(held!.id);
    expect(stored.find((p) => p.id === held!.id)).toEqual(held);
    expect(held).toMatchObject({ tax_year: 2023, acquired_amount_cents: 123456, acquired_on: '2024-06-01', note: 'n' });

    await expect(addPositions(sql, id, [line(4), line(5), line(6)], 5)).rejects.toBeInstanceOf(PositionLimitError);
    expect(await positionsOf(sql, id)).toHaveLength(3);
    // Duplicates do not count toward the limit.
    expect((await addPositions(sql, id, [line(1), line(4), line(5)], 5))!.map((o) => o.status)).toEqual([
      'duplicate',
      'created',
      'created',
    ]);

    expect(await deletePosition(sql, id, held!.id)).toBe(true);
    expect(await deletePosition(sql, id, held!.id)).toBe(false);
    expect(await positionsOf(sql, id)).toHaveLength(4);
  });

  // How fast is `npm run bench:api -- --portfolios`' figure (an import of 10,000), never a timed test's.
  it('adds 10,000 positions in one call', async () => {
    const a = await client();
    const { id } = await createPortfolio(sql, { clientId: a, name: 'big', followHolderGroup: null, limit: 5 });
    const lines = Array.from({ length: 10_000 }, (_, n) => line(n, { acquired_amount_cents: n + 1 }));
    const out = (await addPositions(sql, id, lines, 100_000))!;
    expect(out.every((o) => o.status === 'created')).toBe(true);
    expect(await positionsOf(sql, id)).toHaveLength(10_000);
  });
});
