// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPortfolios, portfolioOfCalendarToken, positionsOf } from '../../../../services/control/portfolios/index.ts';
import { type AccountSite, openAccountSite, signedInAccount } from '../../../helpers/account-site.ts';
import { type FormClient, mainText } from '../../../helpers/form-client.ts';
import { sampleCertificate } from '../../../helpers/sample-certificate.ts';

/**
 * /account/portfolios against the real server, engine and control plane: make and delete a
 * portfolio; upload a CSV of positions and read the write's report line by line, numbered as the
 * file; a malformed or too large file adds nothing and says why; the summary and the positions
 * table with the API's sorts, filters and paging; the calendar address shown once, then revoked;
 * another client's portfolio is "not found" at every address.
 */
let site: AccountSite;
/** The certificates the site loads (openAccountSite): sampleCertificate(n) for n = 0, 1. */
const loaded = [sampleCertificate({}, 0), sampleCertificate({}, 1)];

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 2 });
});
afterAll(async () => site?.close());

const account = () => signedInAccount(site, 'pro');

const shown = (html: string) =>
  mainText(html)
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

async function makePortfolio(browser: FormClient, name: string): Promise<string> {
  await browser.get('/account/portfolios');
  const res = await browser.post('/account/portfolios', { name });
  expect(res.statusCode, mainText(res.body)).toBe(303);
  const location = res.headers.location as string;
  expect(location).toMatch(/^\/account\/portfolios\/pf_[A-Za-z0-9_-]+\?notice=portfolio-created$/);
  return /pf_[A-Za-z0-9_-]+/.exec(location)![0];
}

/** Posts a file as a browser's file input does (multipart/form-data), with the CSRF token of the last page. */
async function upload(browser: FormClient, id: string, csv: string | Buffer, options: { csrf?: boolean; filename?: string } = {}) {
  const boundary = '----taxcertTestBoundary7MA4YWxkTrZu0gW';
  const parts: Buffer[] = [];
  if (options.csrf !== false)
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${browser.csrf()}\r\n`));
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.filename ?? 'positions.csv'}"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    Buffer.isBuffer(csv) ? csv : Buffer.from(csv),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  const res = await site.app.inject({
    method: 'POST',
    url: `/account/portfolios/${id}/positions`,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    },
    payload: Buffer.concat(parts),
  });
  browser.body = res.body;
  return res;
}

describe('/account/portfolios', () => {
  it('is in the navigation; makes a portfolio by name, refusing a bad name beside its field, and lists it', async () => {
    const a = await account();
    const list = await a.browser.get('/account/portfolios');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<a href="/account/portfolios" aria-current="page">Portfolios</a>');
    expect(mainText(list.body)).toContain('No portfolios yet.');
    expect(mainText(list.body)).toMatch(/You have 0 of the \d+ portfolios the Pro plan allows\./);

    const bad = await a.browser.post('/account/portfolios', { name: '   ' });
    expect(bad.statusCode).toBe(400);
    expect(shown(bad.body)).toContain('There is a problem The name');

    const id = await makePortfolio(a.browser, '  Fund I  ');
    const page = await a.browser.get(`/account/portfolios/${id}?notice=portfolio-created`);
    expect(page.statusCode).toBe(200);
    expect(shown(page.body)).toContain('The portfolio is made.');
    expect(shown(page.body)).toContain('No positions match.');
    expect(shown(page.body)).toContain('This portfolio has no calendar address.');
    expect((await listPortfolios(site.t.runtime.sql, a.client.id, { limit: 10, offset: 0 })).rows).toEqual([
      expect.objectContaining({ id, name: 'Fund I' }),
    ]);
    expect(shown((await a.browser.get('/account/portfolios')).body)).toContain(`Fund I ${id}`);
  });

  it("uploads a CSV and reports every line by the file's own number: added, not in the data yet, or why not", async () => {
    const a = await account();
    const id = await makePortfolio(a.browser, 'Upload');
    await a.browser.get(`/account/portfolios/${id}`);
    const csv = [
      '\uFEFFcounty,certificate_number,tax_year,acquired_on,acquired_amount,note',
      `alachua,${loaded[0]!.certificate_number},2023,2024-06-01,"1,850.40","bought, at the sale"`,
      '',
      'lee,NOT-YET-1,2024,,,',
      'lee,NOT-YET-2,nineteen,,,',
      `alachua,${loaded[0]!.certificate_number},2023,,,`,
      'nowhere,1,2024,,,',
    ].join('\r\n');
    const res = await upload(a.browser, id, csv);
    expect(res.statusCode, mainText(res.body)).toBe(200);
    const text = shown(res.body);
    expect(text).toContain('positions.csv: 2 added (1 not in the data yet), 3 not added.');
    expect(text).toContain(`2 Added Alachua 2023 #${loaded[0]!.certificate_number} Added`);
    expect(text).toContain('4 Added Lee 2024 #NOT-YET-1 Added; not in the data yet');
    expect(text).toMatch(/5 Not added tax_year: must be/);
    expect(text).toMatch(/6 Not added .*already/);
    expect(text).toContain('7 Not added county: unknown county slug "nowhere"');
    const held = await positionsOf(site.t.runtime.sql, id);
    expect(held.map((p) => p.certificate_number).sort()).toEqual([loaded[0]!.certificate_number, 'NOT-YET-1'].sort());
    expect(held.find((p) => p.note !== null)).toMatchObject({ acquired_amount_cents: 185_040, note: 'bought, at the sale' });
  });

  it('adds nothing from a malformed, empty or too large file and names the line at fault; a post without its token is refused', async () => {
    const a = await account();
    const id = await makePortfolio(a.browser, 'Malformed');
    await a.browser.get(`/account/portfolios/${id}`);
    const quote = await upload(a.browser, id, 'lee,A-1,2024\nlee,"A-2,2024\nlee,A-3,2024\n', { filename: 'bad.csv' });
    expect(quote.statusCode).toBe(400);
    expect(shown(quote.body)).toContain('bad.csv: line 2: a quoted field opens here and is never closed. Nothing was added.');
    const columns = await upload(a.browser, id, 'lee,A-1,2024\nlee,A-2,2024,2024-01-01,10,x,extra\n');
    expect(columns.statusCode).toBe(400);
    expect(shown(columns.body)).toContain('line 2: has 7 fields where the first line has 3');
    const tooMany = await upload(a.browser, id, Array.from({ length: 10_001 }, (_, i) => `lee,N-${i},2024`).join('\n'));
    expect(tooMany.statusCode).toBe(400);
    expect(shown(tooMany.body)).toContain('line 10001: a file takes at most 10,000 positions');
    expect((await upload(a.browser, id, '')).statusCode).toBe(400);
    expect(shown(a.browser.body)).toContain('Choose a CSV file of positions to upload.');
    const large = await upload(a.browser, id, Buffer.alloc(4 * 1024 * 1024 + 100 * 1024, 'a'));
    expect(large.statusCode).toBe(413);
    expect(shown(large.body)).toContain('A file of positions takes at most 4 MiB (10,000 positions). Nothing was added');
    const forged = await upload(a.browser, id, 'lee,A-1,2024\n', { csrf: false });
    expect(forged.statusCode).toBe(403);
    expect(await positionsOf(site.t.runtime.sql, id)).toEqual([]);
  });

  it("shows the summary and the positions table with the API's sorts, filters and paging; a bad filter is named", async () => {
    const a = await account();
    const id = await makePortfolio(a.browser, 'Table');
    await a.browser.get(`/account/portfolios/${id}`);
    const lines = [
      `alachua,${loaded[0]!.certificate_number},2023,2024-05-01,1000,first`,
      `alachua,${loaded[1]!.certificate_number},2023,2024-07-01,2000,second`,
      ...Array.from({ length: 28 }, (_, i) => `lee,UNLOADED-${String(i).padStart(2, '0')},2024,,,`),
    ];
    expect((await upload(a.browser, id, lines.join('\n'))).statusCode).toBe(200);

    const page = await a.browser.get(`/account/portfolios/${id}?as_of=2025-06-15`);
    expect(page.statusCode).toBe(200);
    const text = shown(page.body);
    expect(text).toContain('Summary as of 15 June 2025');
    expect(text).toContain('Positions 30 Not in the data yet 28');
    expect(text).toContain('Positions 1 to 25 of 30.');
    const next = /href="([^"]*offset=25[^"]*)"/.exec(page.body)![1]!.replaceAll('&amp;', '&');
    expect(next).toContain('as_of=2025-06-15');
    const second = await a.browser.get(next);
    expect(shown(second.body)).toContain('Positions 26 to 30 of 30.');
    expect(shown(second.body)).toContain('Previous page');

    const acquired = shown((await a.browser.get(`/account/portfolios/${id}?sort=acquired_desc&as_of=2025-06-15`)).body);
    expect(acquired.indexOf(`#${loaded[1]!.certificate_number}`)).toBeLessThan(acquired.indexOf(`#${loaded[0]!.certificate_number}`));
    expect(acquired.indexOf(`#${loaded[0]!.certificate_number}`)).toBeLessThan(acquired.indexOf('#UNLOADED-'));

    const unresolved = shown((await a.browser.get(`/account/portfolios/${id}?status=unresolved&status=sold`)).body);
    expect(unresolved).toMatch(/Positions 1 to \d+ of \d+\./);
    const onlyAlachua = shown((await a.browser.get(`/account/portfolios/${id}?county=alachua&status=`)).body);
    expect(onlyAlachua).toContain('Positions 1 to 2 of 2.');
    expect(onlyAlachua).not.toContain('UNLOADED');

    const badCounty = await a.browser.get(`/account/portfolios/${id}?county=atlantis`);
    expect(badCounty.statusCode).toBe(400);
    expect(shown(badCounty.body)).toMatch(/county: .*atlantis/);
    const badSort = await a.browser.get(`/account/portfolios/${id}?sort=cheapest`);
    expect(badSort.statusCode).toBe(400);
    expect(shown(badSort.body)).toContain('sort: must be one of next_deadline_asc, payoff_desc, face_desc, acquired_desc');
  });

  it('makes a calendar address shown once, says one exists afterwards, and revokes it', async () => {
    const a = await account();
    const id = await makePortfolio(a.browser, 'Calendar');
    await a.browser.get(`/account/portfolios/${id}`);
    const made = await a.browser.post(`/account/portfolios/${id}/calendar`, {});
    expect(made.statusCode).toBe(200);
    const url = new RegExp(`value="(${site.url}/calendar/(cal_[A-Za-z0-9_-]{43})\\.ics)"`).exec(made.body);
    expect(url, mainText(made.body)).not.toBeNull();
    expect((await portfolioOfCalendarToken(site.t.runtime.sql, url![2]!))?.id).toBe(id);
    expect(shown(made.body)).toContain('It is shown only this once');

    const after = await a.browser.get(`/account/portfolios/${id}`);
    expect(shown(after.body)).toContain('This portfolio has a calendar address, made');
    expect(after.body).not.toContain(url![2]!);

    const revoked = await a.browser.post(`/account/portfolios/${id}/calendar/revoke`, {});
    expect(revoked.statusCode).toBe(303);
    expect(revoked.headers.location).toBe(`/account/portfolios/${id}?notice=calendar-revoked`);
    expect(await portfolioOfCalendarToken(site.t.runtime.sql, url![2]!)).toBeUndefined();
    expect(shown((await a.browser.get(revoked.headers.location as string)).body)).toContain('This portfolio has no calendar address.');
  });

  it("deletes after a confirmation page; another client's portfolio is not found at every address", async () => {
    const a = await account();
    const b = await account();
    const id = await makePortfolio(a.browser, 'Mine');
    await b.browser.get('/account/portfolios');
    for (const url of [`/account/portfolios/${id}`, `/account/portfolios/${id}/delete`])
      expect((await b.browser.get(url)).statusCode).toBe(404);
    for (const url of [
      `/account/portfolios/${id}/delete`,
      `/account/portfolios/${id}/calendar`,
      `/account/portfolios/${id}/calendar/revoke`,
    ])
      expect((await b.browser.post(url, {})).statusCode).toBe(404);
    expect((await upload(b.browser, id, 'lee,A-1,2024\n')).statusCode).toBe(404);

    const confirm = await a.browser.get(`/account/portfolios/${id}/delete`);
    expect(shown(confirm.body)).toContain('Delete this portfolio?');
    const gone = await a.browser.post(`/account/portfolios/${id}/delete`, {});
    expect(gone.statusCode).toBe(303);
    expect(gone.headers.location).toBe('/account/portfolios?notice=portfolio-deleted');
    expect((await listPortfolios(site.t.runtime.sql, a.client.id, { limit: 10, offset: 0 })).total).toBe(0);
    expect((await a.browser.get(`/account/portfolios/${id}`)).statusCode).toBe(404);
  });
});
