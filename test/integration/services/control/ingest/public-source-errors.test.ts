// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_REJECTION_MESSAGES, publicRejection, type FileRejectionCode } from '../../../../../indexer/errors.ts';
import type { Sql } from '../../../../../services/control/db/sql.ts';
import { openTestControl } from '../../../../helpers/control.ts';
import { loadMigrations } from '../../../../../services/control/db/migrate.ts';
import { getSource, upsertSource } from '../../../../../services/control/ingest/sources.ts';
import { testContext } from '../../../../helpers/context.ts';
import { registry } from '../../../../helpers/registry.ts';

/**
 * Migration 013 rewrites the lastError older versions stored, which held server paths and county
 * file text and was served to every key, into the public sentence the worker now writes.
 */
const ctx = testContext(import.meta.url);
let db: Sql;
beforeAll(async () => {
  db = await openTestControl({ path: ctx.config.DATABASE_PATH, registry, label: 'public-source-errors' });
});
afterAll(async () => {
  await db.close();
  ctx.cleanupFiles();
});

describe('migration 013: public source errors', () => {
  const set = async (slug: string, error: string | null) => {
    await upsertSource(db, registry, { countySlug: slug, taxYear: 2024, vendor: 'lienport', sourceKind: 'cert_sale_portal' });
    await db.run(
      'UPDATE sources SET last_error = ? WHERE tax_year = 2024 AND county_id = (SELECT id FROM counties WHERE county_slug = ?)',
      [error, slug],
    );
  };

  it('writes each code sentence as the worker does, the rest as check_failed, and keeps null', async () => {
    const codes = Object.keys(PUBLIC_REJECTION_MESSAGES).filter((c) => c !== 'line_too_long') as FileRejectionCode[];
    const slugs = ['alachua', 'baker', 'bay', 'bradford', 'brevard', 'broward'];
    for (const [i, code] of codes.entries())
      await set(slugs[i]!, `${code}: expected a header but found "SSN 123" in /srv/taxcert/incoming/x.csv`);
    await set('calhoun', 'HTTP 503 from http://10.0.0.7:8080/feed');
    await set('charlotte', null);
    const migration = (await loadMigrations(db.dialect)).find((m) => m.name === 'public-source-errors')!;
    await db.exec(migration.sql);
    for (const [i, code] of codes.entries()) expect((await getSource(db, slugs[i]!, 2024))!.lastError).toBe(publicRejection(code));
    expect((await getSource(db, 'calhoun', 2024))!.lastError).toBe('check_failed: the last check of this feed failed');
    expect((await getSource(db, 'charlotte', 2024))!.lastError).toBeNull();
  });
});
