import { describe, expect, it } from 'vitest';
import { COUNTY_PROFILES } from '../../../../services/generator/counties.ts';
import { distanceKm, inFlorida } from '../../../../services/domain/county-centroids.ts';
import { MAX_PARCEL_KM, placeParcel } from '../../../../services/generator/parcel-place.ts';
import { Prng, seedOf } from '../../../../services/generator/prng.ts';
import { loadInteriorPoints, TOWNS, townOf } from '../../../../services/generator/towns.ts';

const interior = loadInteriorPoints();

describe('towns', () => {
  it('has a centre for every city of every modelled county, each in Florida and within the radius of its county', () => {
    for (const profile of COUNTY_PROFILES) {
      const point = interior.get(profile.slug)!;
      expect(point, profile.slug).toBeDefined();
      for (const city of profile.cities) {
        const town = townOf(profile.slug, city.name);
        expect(inFlorida(town), `${city.name}`).toBe(true);
        expect(distanceKm(town, point), `${city.name} from ${profile.slug}'s interior point`).toBeLessThan(MAX_PARCEL_KM);
      }
    }
  });

  it('reads the interior points of all 67 counties from the shared CSV', () => {
    expect(interior.size).toBe(67);
    expect(interior.get('gulf')).toEqual({ lat: 29.907257, lon: -85.256537 });
  });
});

describe('placeParcel', () => {
  const draws = 4000;

  it('puts every parcel inside Florida and within the radius of its county, wherever its town lies', () => {
    for (const [slug, towns] of Object.entries(TOWNS)) {
      const point = interior.get(slug)!;
      for (const [name, town] of Object.entries(towns)) {
        const rng = new Prng(seedOf(7, name.length));
        for (let i = 0; i < draws / 10; i++) {
          const p = placeParcel(town, point, rng);
          expect(inFlorida(p), `${slug} ${name} ${p.lat},${p.lon}`).toBe(true);
          expect(distanceKm(p, point)).toBeLessThanOrEqual(MAX_PARCEL_KM);
        }
      }
    }
  });

  it('keeps a point out of reach of the radius at its town centre instead of beyond it', () => {
    // A town drawn far off its county's interior point (its spread reaching past the radius).
    const point = { lat: 27, lon: -81.5 };
    const far = { lat: 27.5, lon: -81.5, spreadKm: 30 };
    const rng = new Prng(3);
    for (let i = 0; i < draws; i++) expect(distanceKm(placeParcel(far, point, rng), point)).toBeLessThanOrEqual(MAX_PARCEL_KM);
  });

  it('crowds parcels into the town core: most within its spread, few beyond twice it', () => {
    const town = townOf('hillsborough', 'TAMPA');
    const rng = new Prng(11);
    const km = Array.from({ length: draws }, () => distanceKm(placeParcel(town, interior.get('hillsborough')!, rng), town));
    const share = (limit: number) => km.filter((d) => d <= limit).length / draws;
    expect(share(town.spreadKm)).toBeGreaterThan(0.6);
    expect(share(town.spreadKm / 2)).toBeGreaterThan(0.4);
    expect(share(2 * town.spreadKm)).toBeGreaterThan(0.9);
  });

  it('is a function of its seed: the same seed gives the same points, another seed others', () => {
    const town = townOf('pinellas', 'CLEARWATER');
    const point = interior.get('pinellas')!;
    const run = (seed: number) => {
      const rng = new Prng(seed);
      return Array.from({ length: 50 }, () => placeParcel(town, point, rng));
    };
    expect(run(42)).toEqual(run(42));
    expect(run(43)).not.toEqual(run(42));
  });
});
