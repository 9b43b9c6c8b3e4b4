import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBulkWriter } from '../../../../indexer/load/bulk.ts';
import { certificateDocument } from '../../../../indexer/certificates/certificate-document.ts';
import { createPortfolio } from '../../../../services/control/portfolios/index.ts';
import { aliasName } from '../../../../services/domain/datasets.ts';
import { type AccountSite, openAccountSite, signedInAccount } from '../../../helpers/account-site.ts';
import { mainText } from '../../../helpers/form-client.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

// The account's portfolio page, when the holder group the portfolio follows has grown past what one
// read takes (PORTFOLIO_GROUP_MAX, 3 here): the page says so and how to fix it, never a partial table.

let site: AccountSite;
const GROUP = Array.from({ length: 4 }, (_, n) =>
  certificateDocument(
    sampleCertificate(
      { county_slug: 'lee', county_name: 'Lee', certificate_number: `2023-40${n}`, holder_name: 'Egret Lien Holdings LLC' },
      40 + n,
    ),
    new Map(),
  ),
);

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 0, env: { PORTFOLIO_GROUP_MAX: '3' } });
  const writer = createBulkWriter(site.t.runtime.opensearch, {
    index: aliasName(site.t.config.INDEX_PREFIX, 'certificates'),
    refresh: true,
  });
  for (const doc of GROUP) await writer.add(doc.id, doc);
  const totals = await writer.flush();
  if (totals.failed > 0) throw new Error(`seed failed: ${JSON.stringify(totals.failures.slice(0, 3))}`);
});
afterAll(async () => site?.close());

describe('/account/portfolios/{id} of a portfolio whose followed group grew past the bound', () => {
  it('answers 403 with the reason and the way out, and no positions table', async () => {
    const a = await signedInAccount(site, 'enterprise');
    const group = GROUP[0]!.holder_group_id;
    // Followed when it was smaller: the control plane keeps the follow as written then.
    const portfolio = await createPortfolio(site.t.runtime.sql, {
      clientId: a.client.id,
      name: 'Egret',
      followHolderGroup: group,
      limit: 10,
    });
    const res = await a.browser.get(`/account/portfolios/${portfolio.id}`);
    expect(res.statusCode).toBe(403);
    const text = mainText(res.body);
    expect(text).toContain(`follows holder group ${group}, which now holds more than 3 certificates`);
    expect(text).toContain('follow a smaller group or none');
    expect(text).not.toContain('Positions 1 to');
  });
});
