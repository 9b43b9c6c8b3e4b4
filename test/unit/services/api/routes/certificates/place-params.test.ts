import { describe, expect, it } from 'vitest';
import { readBbox, readLatLon, readPolygon, readRadius } from '../../../../../../services/api/params/geo.ts';
import { parseParams } from '../../../../../../services/api/params/parse.ts';
import {
  ByParcelParams,
  CertificateSearchParams,
  CertificateView,
  CountsParams,
  GeoGridParams,
} from '../../../../../../services/api/routes/certificates/params.ts';
import { BidRateParams } from '../../../../../../services/api/routes/analytics/bid-rates/params.ts';
import { RedemptionCurveParams } from '../../../../../../services/api/routes/analytics/redemption/params.ts';

/**
 * The map, parcel-roll and rate parameters as a query string sends them (every value text):
 * what they read as, and every bad input a 400 naming the parameter.
 */

type Schema = typeof CertificateSearchParams;

function parse(given: Record<string, unknown>, schema: Schema | typeof GeoGridParams | typeof CountsParams = CertificateSearchParams) {
  const parsed = parseParams(schema, schema.shape, given);
  return parsed.error ? { issues: parsed.error.issues } : { value: parsed.value as Record<string, unknown> };
}

/** The parameters a request's 400 names. */
function named(given: Record<string, unknown>, schema?: Parameters<typeof parse>[1]): string[] {
  const read = parse(given, schema);
  if (!read.issues) throw new Error(`expected a 400 for ${JSON.stringify(given)}`);
  return read.issues.map((i) => i.parameter);
}

describe('map parameters read', () => {
  it('reads points, boxes, radii and polygons', () => {
    expect(readLatLon(' 26.1224 , -80.1373 ')).toEqual({ value: { lat: 26.1224, lon: -80.1373 } });
    expect(readBbox('-80.3,25.7,-80.1,25.9')).toEqual({ value: { minLon: -80.3, minLat: 25.7, maxLon: -80.1, maxLat: 25.9 } });
    expect(readRadius('500m')).toEqual({ value: 500 });
    expect(readRadius('2km')).toEqual({ value: 2000 });
    expect(readRadius('3mi')).toEqual({ value: 4828.032 });
    expect(readRadius('100km')).toEqual({ value: 100_000 });
    expect(readPolygon('26,-80.3;26.2,-80.3;26.2,-80.1')).toEqual({
      value: [
        { lat: 26, lon: -80.3 },
        { lat: 26.2, lon: -80.3 },
        { lat: 26.2, lon: -80.1 },
      ],
    });
    // Closed: the repeated first point is not a fourth corner.
    expect(readPolygon('26,-80.3;26.2,-80.3;26.2,-80.1;26,-80.3')).toMatchObject({ value: { length: 3 } });
  });

  it('accepts every new filter together, city upper-cased with single spaces', () => {
    const read = parse({
      bbox: '-80.3,25.7,-80.1,25.9',
      near: '25.8,-80.2',
      radius: '3mi',
      polygon: '25.7,-80.3;25.9,-80.3;25.9,-80.1',
      homestead: 'false',
      just_value_min: '150000',
      just_value_max: '900000',
      use_code: '001,000',
      rate_min: '0.25',
      rate_max: '18',
      zip: ['33101', '33102'],
      city: 'fort   myers,Cape Coral',
      owner_type: 'entity',
      sort: 'distance_asc',
      expand: 'parcel',
      format: 'geojson',
    });
    expect(read.issues).toBeUndefined();
    expect(read.value).toMatchObject({
      homestead: false,
      just_value_min: 150000,
      use_code: ['001', '000'],
      rate_min: 0.25,
      zip: ['33101', '33102'],
      city: ['FORT MYERS', 'CAPE CORAL'],
      owner_type: 'entity',
      expand: ['parcel'],
      format: 'geojson',
    });
  });
});

describe('bad input: a 400 naming the parameter', () => {
  it.each([
    [{ near: '91,-80', radius: '1km' }, 'near'],
    [{ near: '-90.5,-80', radius: '1km' }, 'near'],
    [{ near: '26,-181', radius: '1km' }, 'near'],
    [{ near: '26,180.01', radius: '1km' }, 'near'],
    [{ near: '26', radius: '1km' }, 'near'],
    [{ near: 'abc,def', radius: '1km' }, 'near'],
    [{ bbox: '-80.1,25.7,-80.3,25.9' }, 'bbox'],
    [{ bbox: '-80.3,25.9,-80.1,25.7' }, 'bbox'],
    [{ bbox: '-80.3,25.7,-80.1' }, 'bbox'],
    [{ bbox: '-80.3,95,-80.1,96' }, 'bbox'],
    [{ bbox: '-190,25,-80.1,26' }, 'bbox'],
    [{ radius: '1km' }, 'radius'],
    [{ near: '26,-80', radius: '5furlongs' }, 'radius'],
    [{ near: '26,-80', radius: '5' }, 'radius'],
    [{ near: '26,-80', radius: '101km' }, 'radius'],
    [{ near: '26,-80', radius: '63mi' }, 'radius'],
    [{ near: '26,-80', radius: '0m' }, 'radius'],
    [{ near: '26,-80' }, 'radius'],
    [{ polygon: '26,-80.3;26.2,-80.3' }, 'polygon'],
    [{ polygon: '26,-80.3;26.2,-80.3;26,-80.3' }, 'polygon'],
    [{ polygon: '26,-80.3;26.2,x;26.2,-80.1' }, 'polygon'],
    [{ polygon: '26,-80.3;95,-80.3;26.2,-80.1' }, 'polygon'],
    [{ polygon: Array.from({ length: 201 }, (_, i) => `${25 + i / 1000},${-80 - (i % 2) / 10}`).join(';') }, 'polygon'],
    [{ homestead: 'yes' }, 'homestead'],
    [{ just_value_min: '-1' }, 'just_value_min'],
    [{ just_value_min: '1.5' }, 'just_value_min'],
    [{ just_value_min: '500', just_value_max: '100' }, 'just_value_min'],
    [{ use_code: '01' }, 'use_code'],
    [{ use_code: '001,abc' }, 'use_code'],
    [{ rate_min: '0.3' }, 'rate_min'],
    [{ rate_max: '18.25' }, 'rate_max'],
    [{ rate_min: '5', rate_max: '4' }, 'rate_min'],
    [{ zip: '3310' }, 'zip'],
    [{ zip: '33101-1234' }, 'zip'],
    [{ owner_type: 'company' }, 'owner_type'],
    [{ sort: 'distance_asc' }, 'sort'],
    [{ expand: 'unknown' }, 'expand'],
    [{ expand: 'parcel,parcel' }, 'expand'],
    [{ format: 'kml' }, 'format'],
  ])('%j -> %s', (given, parameter) => {
    expect(named(given)).toContain(parameter);
  });

  it('a polygon of 200 points is accepted, 201 is not', () => {
    const ring = (n: number) =>
      Array.from({ length: n }, (_, i) => `${25 + Math.sin((2 * Math.PI * i) / n)},${-80 + Math.cos((2 * Math.PI * i) / n)}`);
    expect(parse({ polygon: ring(200).join(';') }).issues).toBeUndefined();
    expect(named({ polygon: ring(201).join(';') })).toEqual(['polygon']);
  });

  it('geo-grid: zoom 0-18 and required; the search filters with their rules', () => {
    expect(parse({ zoom: '18' }, GeoGridParams).issues).toBeUndefined();
    expect(parse({ zoom: '0', county: 'lee', near: '26.6,-81.9', radius: '2km' }, GeoGridParams).issues).toBeUndefined();
    expect(named({ zoom: '19' }, GeoGridParams)).toEqual(['zoom']);
    expect(named({ zoom: '-1' }, GeoGridParams)).toEqual(['zoom']);
    expect(named({}, GeoGridParams)).toEqual(['zoom']);
    expect(named({ zoom: '5', radius: '2km' }, GeoGridParams)).toEqual(['radius']);
    // A grid has no order, page or format.
    expect(named({ zoom: '5', sort: 'rate_asc' }, GeoGridParams)).toEqual(['sort']);
  });

  it('counts, by-parcel, by-id and the analytics scopes take the same rules', () => {
    expect(named({ near: '26,-80', radius: '200km' }, CountsParams)).toEqual(['radius']);
    expect(parse({ county: 'lee', bbox: '-82,26,-81,27', owner_type: 'person' }, CountsParams).issues).toBeUndefined();
    expect(ByParcelParams.safeParse({ county: 'lee', parcel_id: '1', expand: ['unknown'] }).success).toBe(false);
    expect(CertificateView.safeParse({ expand: ['parcel'], format: 'geojson' }).success).toBe(true);
    expect(CertificateView.safeParse({ expand: ['unknown'] }).success).toBe(false);
    expect(BidRateParams.safeParse({ bbox: '-80.1,25.7,-80.3,25.9' }).success).toBe(false);
    expect(BidRateParams.safeParse({ near: '26,-80', radius: '3mi', homestead: false }).success).toBe(true);
    expect(RedemptionCurveParams.safeParse({ near: '26,-80' }).success).toBe(false);
    expect(RedemptionCurveParams.safeParse({ polygon: '26,-80.3;26.2,-80.3;26.2,-80.1', just_value_min: 150000 }).success).toBe(true);
  });
});
