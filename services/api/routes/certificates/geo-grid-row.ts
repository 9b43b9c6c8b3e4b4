import { z } from 'zod';
import { objectResponse } from '../../envelope.ts';

/** GET /certificates/geo-grid: map cells of the located certificates within the filters. */

const Corner = z.object({ lat: z.number(), lon: z.number() });

export const GeoGridCell = z.object({
  key: z.string().describe('The web map tile z/x/y of the cell (x from the antimeridian eastward, y from the north).'),
  bounds: z
    .object({ top_left: Corner, bottom_right: Corner })
    .describe("The tile's corners in decimal degrees (Web Mercator tile edges; the north and west edges belong to the cell)."),
  count: z.number().int().describe('Certificates in the cell within the filters.'),
  face_amount_sum: z.number().describe('Sum of their face amounts, US dollars.'),
});
export type GeoGridCell = z.infer<typeof GeoGridCell>;

export const GeoGridObject = z.object({
  zoom: z.number().int().describe('The zoom asked for.'),
  located: z
    .number()
    .int()
    .describe(
      "Certificates within the filters that have a location: the sum of the cells' counts (certificates without a parcel row are in no cell).",
    ),
  cells: z.array(GeoGridCell).describe('Every non-empty cell, most certificates first (ties by key); at most 10,000.'),
});
export type GeoGridObject = z.infer<typeof GeoGridObject>;

export const GeoGridResponse = objectResponse(GeoGridObject);
