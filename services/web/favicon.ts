import type { FastifyInstance } from 'fastify';
import { productMark } from '../api/openapi/branding.ts';

/**
 * The site's icon, so no page (the account pages, the home page, the API's JSON in a browser)
 * leaves a 404 in the log for it. Pages link /favicon.svg; /favicon.ico answers browsers and
 * tools that ask for it by the old name without reading a page. The .ico is drawn here, pixel
 * by pixel, from the mark's own geometry (a T on a rounded square), so no binary file needs
 * keeping in step with the SVG.
 */
const SIZE = 32;
const RADIUS = 6;
const BLUE = [0x1f, 0x5f, 0x8b] as const;

/** True where the mark is white: the T of the SVG's path (bar 8-24 x 9-12, stem 14.5-17.5 x 12-24), by pixel centre. */
function inT(cx: number, cy: number): boolean {
  return (cx >= 8 && cx < 24 && cy >= 9 && cy < 12) || (cx >= 14.5 && cx < 17.5 && cy >= 12 && cy < 24);
}

/** True inside the rounded square, by pixel centre. */
function inSquare(cx: number, cy: number): boolean {
  const dx = Math.max(RADIUS - cx, 0, cx - (SIZE - RADIUS));
  const dy = Math.max(RADIUS - cy, 0, cy - (SIZE - RADIUS));
  return dx * dx + dy * dy <= RADIUS * RADIUS;
}

/** A 32x32 32-bit ICO: one BMP image (rows bottom-up, BGRA), its AND mask all zero (alpha decides). */
export function markIco(): Buffer {
  const pixels = Buffer.alloc(SIZE * SIZE * 4);
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const cx = x + 0.5;
      const cy = y + 0.5;
      const at = ((SIZE - 1 - y) * SIZE + x) * 4;
      if (!inSquare(cx, cy)) continue;
      const [r, g, b] = inT(cx, cy) ? [255, 255, 255] : BLUE;
      pixels.set([b, g, r, 255], at);
    }
  const mask = Buffer.alloc((SIZE / 8) * SIZE);
  const info = Buffer.alloc(40);
  info.writeUInt32LE(40, 0);
  info.writeInt32LE(SIZE, 4);
  info.writeInt32LE(SIZE * 2, 8); // an icon's BMP counts the colour rows and the mask's
  info.writeUInt16LE(1, 12);
  info.writeUInt16LE(32, 14);
  info.writeUInt32LE(pixels.length + mask.length, 20);
  const image = Buffer.concat([info, pixels, mask]);
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(1, 2); // type 1: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(SIZE, 6);
  header.writeUInt8(SIZE, 7);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(image.length, 14);
  header.writeUInt32LE(header.length, 18);
  return Buffer.concat([header, image]);
}

/** A day: the icon changes with the product's look, rarely. */
const CACHE = 'public, max-age=86400';

export function registerFavicon(app: FastifyInstance): void {
  const icons = [
    { path: '/favicon.svg', type: 'image/svg+xml', body: Buffer.from(productMark(32)) },
    { path: '/favicon.ico', type: 'image/x-icon', body: markIco() },
  ];
  for (const icon of icons)
    app.get(icon.path, { schema: { hide: true } }, async (_request, reply) =>
      reply.type(icon.type).headers({ 'cache-control': CACHE, 'x-content-type-options': 'nosniff' }).send(icon.body),
    );
}
