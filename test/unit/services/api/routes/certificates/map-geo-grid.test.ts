import { describe, expect, it } from 'vitest';
import { InvalidParamsError } from '../../../../../../services/api/errors.ts';
import { GEO_GRID_MAX_CELLS } from '../../../../../../services/api/routes/certificates/build-geo-grid.ts';
import { mapGeoGrid, tileBounds } from '../../../../../../services/api/routes/certificates/map-geo-grid.ts';
import { assertWithinCellCap } from '../../../../../../services/api/routes/certificates/read-geo-grid.ts';

/** Tile keys to bounds by the web map tile formulas, and the grid's answer from the aggregation. */
describe('geo-grid mapper', () => {
  it('gives the whole world at zoom 0 and the quarter tiles at zoom 1', () => {
    const world = tileBounds('0/0/0');
    expect(world.top_left.lon).toBe(-180);
    expect(world.bottom_right.lon).toBe(180);
    expect(world.top_left.lat).toBeCloseTo(85.0511287798, 9);
    expect(world.bottom_right.lat).toBeCloseTo(-85.0511287798, 9);
    expect(tileBounds('1/1/0')).toEqual({ top_left: { lat: world.top_left.lat, lon: 0 }, bottom_right: { lat: 0, lon: 180 } });
  });

  it('puts a Fort Lauderdale point inside its zoom-10 tile', () => {
    const b = tileBounds('10/284/434');
    expect(b.top_left.lon).toBeLessThanOrEqual(-80.1373);
    expect(b.bottom_right.lon).toBeGreaterThan(-80.1373);
    expect(b.top_left.lat).toBeGreaterThanOrEqual(26.1224);
    expect(b.bottom_right.lat).toBeLessThan(26.1224);
  });

  it('orders cells by count then key, sums to whole cents, and answers located', () => {
    const grid = mapGeoGrid(3, {
      located: {
        doc_count: 6,
        cells: {
          buckets: [
            { key: '3/2/3', doc_count: 1, face_amount_sum: { value: 10.004999999 } },
            { key: '3/2/2', doc_count: 1, face_amount_sum: { value: 0.1 + 0.2 } },
            { key: '3/1/3', doc_count: 4, face_amount_sum: { value: 400 } },
          ],
        },
      },
    });
    expect(grid.located).toBe(6);
    expect(grid.cells.map((c) => [c.key, c.count, c.face_amount_sum])).toEqual([
      ['3/1/3', 4, 400],
      ['3/2/2', 1, 0.3],
      ['3/2/3', 1, 10],
    ]);
    expect(mapGeoGrid(0, undefined)).toEqual({ zoom: 0, located: 0, cells: [] });
  });
});

describe('the cell cap', () => {
  const cells = (n: number) =>
    Array.from({ length: n }, () => ({ key: '18/0/0', bounds: tileBounds('18/0/0'), count: 1, face_amount_sum: 1 }));

  it('answers up to the cap and refuses one more cell with a 400 naming zoom', () => {
    expect(() => assertWithinCellCap({ zoom: 18, cells: cells(GEO_GRID_MAX_CELLS) })).not.toThrow();
    let thrown: unknown;
    try {
      assertWithinCellCap({ zoom: 18, cells: cells(GEO_GRID_MAX_CELLS + 1) });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(InvalidParamsError);
    expect((thrown as InvalidParamsError).issues).toEqual([
      { parameter: 'zoom', message: expect.stringMatching(/^zoom 18 gives more than 10,000 cells/) },
    ]);
  });
});
