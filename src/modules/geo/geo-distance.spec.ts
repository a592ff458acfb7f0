import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { loadSqliteDriver } from '../../database/sqlite-driver';
import { boundingBox, equirectangularKm, haversineKm, withinRadiusSql, type GeoPoint } from './geo-distance';

const point = (maxLat = 60): fc.Arbitrary<GeoPoint> =>
  fc.record({
    lat: fc.double({ min: -maxLat, max: maxLat, noNaN: true }),
    lng: fc.double({ min: -170, max: 170, noNaN: true }),
  });

/** A point `km` away from `center` towards `bearing` (degrees), on the sphere. */
function destination(center: GeoPoint, km: number, bearing: number): GeoPoint {
  const rad = Math.PI / 180;
  const d = km / 6371;
  const lat1 = center.lat * rad;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(bearing * rad));
  const lng2 =
    center.lng * rad +
    Math.atan2(Math.sin(bearing * rad) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return { lat: lat2 / rad, lng: lng2 / rad };
}

describe('geo distance', () => {
  it('stays within 1 % of the great-circle distance up to 300 km, away from the poles', () => {
    fc.assert(
      fc.property(
        point(),
        fc.double({ min: 1, max: 300, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (c, km, bearing) => {
          const p = destination(c, km, bearing);
          expect(Math.abs(equirectangularKm(c, p) - haversineKm(c, p)) / km).toBeLessThan(0.01);
        },
      ),
      { seed: 42, numRuns: 500 },
    );
  });

  it('puts every point within the radius inside the bounding box', () => {
    fc.assert(
      fc.property(
        point(80),
        fc.double({ min: 0.1, max: 2000, noNaN: true }),
        fc.double({ min: 0, max: 360, noNaN: true }),
        (c, km, bearing) => {
          const p = destination(c, km * 0.999, bearing);
          const box = boundingBox(c, km);
          expect(p.lat).toBeGreaterThanOrEqual(box.minLat);
          expect(p.lat).toBeLessThanOrEqual(box.maxLat);
          if (box.maxLng - box.minLng < 360) {
            expect(p.lng).toBeGreaterThanOrEqual(box.minLng);
            expect(p.lng).toBeLessThanOrEqual(box.maxLng);
          }
        },
      ),
      { seed: 7, numRuns: 500 },
    );
  });

  describe('its SQL twin', () => {
    let db: DataSource;
    beforeAll(async () => {
      db = new DataSource({ type: 'better-sqlite3', driver: loadSqliteDriver().driver, database: ':memory:' });
      await db.initialize();
      await db.query('CREATE TABLE g (id integer PRIMARY KEY, lat real, lng real)');
    });
    afterAll(async () => {
      await db.destroy();
    });

    it('selects exactly the points the distance function puts within the radius', async () => {
      const center = { lat: 52.52, lng: 13.405 };
      const points = Array.from({ length: 400 }, (_, i) => destination(center, (i % 100) * 0.6, (i * 37) % 360));
      await db.query('DELETE FROM g');
      for (const [i, p] of points.entries()) await db.query('INSERT INTO g VALUES (?, ?, ?)', [i, p.lat, p.lng]);
      for (const radius of [5, 25, 40]) {
        const within = withinRadiusSql({ lat: 'g.lat', lng: 'g.lng' }, center, radius, 'q');
        const rows = await db
          .createQueryBuilder()
          .select('g.id', 'id')
          .from('g', 'g')
          .where(within.sql, within.params)
          .orderBy('g.id')
          .getRawMany<{ id: number }>();
        const expected = points
          .map((p, i) => [p, i] as const)
          .filter(([p]) => equirectangularKm(center, p) <= radius + 1e-9)
          .map(([, i]) => i);
        expect(rows.map((r) => Number(r.id))).toEqual(expected);
      }
    });
  });
});
