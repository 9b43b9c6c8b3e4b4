// @module-tag postgres
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../../../services/api/openapi/description.ts';
import { markIco } from '../../../../services/web/favicon.ts';
import { CONTENT_SECURITY_POLICY } from '../../../../services/web/headers.ts';
import { type AccountSite, openAccountSite } from '../../../helpers/account-site.ts';

/**
 * The address the start-up banner prints (/) and the site's icon, on the process `taxcert serve`
 * runs (buildSite): / was a JSON 404, and every page's request for /favicon.ico another.
 */
let site: AccountSite;

beforeAll(async () => {
  site = await openAccountSite(import.meta.url, { certificates: 0 });
});
afterAll(async () => site?.close());

describe('GET /', () => {
  it("is an HTML page naming the product, under the account pages' headers", async () => {
    const res = await fetch(`${site.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(
      Object.fromEntries(
        ['content-security-policy', 'x-frame-options', 'referrer-policy', 'x-content-type-options', 'cache-control'].map((h) => [
          h,
          res.headers.get(h),
        ]),
      ),
    ).toEqual({
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'x-content-type-options': 'nosniff',
      'cache-control': 'no-store',
    });
    const body = await res.text();
    expect(body).toContain(`<title>${PRODUCT_NAME}</title>`);
    expect(body).toContain(`<h1>${PRODUCT_NAME}</h1>`);
    expect(body).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
  });

  it('links the docs, the account page and the OpenAPI document, and each answers 200', async () => {
    const body = await (await fetch(`${site.url}/`)).text();
    const links = [...new Set([...body.matchAll(/<a [^>]*href="([^"#]+)"/g)].map((m) => m[1]!))];
    expect(links).toEqual(expect.arrayContaining(['/docs', '/account', '/api/v1/openapi.json']));
    for (const href of links) {
      // The account page sends a stranger to sign in: a redirect to a page that answers 200.
      const res = await fetch(`${site.url}${href}`);
      expect(res.status, href).toBe(200);
    }
    const doc = (await (await fetch(`${site.url}/api/v1/openapi.json`)).json()) as { info: { title: string } };
    expect(doc.info.title).toBe(PRODUCT_NAME);
  });

  it('answers HEAD, and a POST is a 405 like any other read-only address', async () => {
    expect((await fetch(`${site.url}/`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${site.url}/`, { method: 'POST' })).status).toBe(405);
  });
});

describe('the icon', () => {
  it('/favicon.svg and /favicon.ico answer 200 with an image, and the pages link the SVG', async () => {
    const svg = await fetch(`${site.url}/favicon.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(await svg.text()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    const ico = await fetch(`${site.url}/favicon.ico`);
    expect(ico.status).toBe(200);
    expect(ico.headers.get('content-type')).toBe('image/x-icon');
    expect(Buffer.from(await ico.arrayBuffer())).toEqual(markIco());
    for (const url of ['/', '/account/signin'])
      expect(await (await fetch(`${site.url}${url}`)).text(), url).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });

  it('the .ico is one 32x32 32-bit image: the rounded square blue, the T white, the corners clear', () => {
    const ico = markIco();
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2), ico.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([ico[6], ico[7], ico.readUInt16LE(12)]).toEqual([32, 32, 32]);
    expect(ico.readUInt32LE(14)).toBe(ico.length - 22);
    // Pixel (x, y) from the top: the BMP's rows run bottom-up, 4 bytes (BGRA) each, after a 40-byte header.
    const pixel = (x: number, y: number) => [...ico.subarray(22 + 40 + ((31 - y) * 32 + x) * 4, 22 + 40 + ((31 - y) * 32 + x) * 4 + 4)];
    expect(pixel(0, 0)).toEqual([0, 0, 0, 0]);
    expect(pixel(3, 16)).toEqual([0x8b, 0x5f, 0x1f, 255]);
    expect(pixel(15, 10)).toEqual([255, 255, 255, 255]);
    expect(pixel(15, 20)).toEqual([255, 255, 255, 255]);
    expect(pixel(10, 20)).toEqual([0x8b, 0x5f, 0x1f, 255]);
  });
});
