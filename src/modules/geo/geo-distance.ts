/** Kilometres per degree of latitude (and of longitude at the equator), on a sphere of radius 6371 km. */
export const KM_PER_DEGREE = 111.195;

export interface GeoPoint {
  lat: number;
  lng: number;
}

/**
 * The latitude/longitude box around a point that holds every point within `radiusKm`: the prefilter an
 * index on (lat, lng) answers. Near the poles, or when the box would cross ±180°, it spans all longitudes.
 */
export function boundingBox(
  center: GeoPoint,
  radiusKm: number,
): { minLat: number; maxLat: number; minLng: number; maxLng: number } {
  const dLat = radiusKm / KM_PER_DEGREE;
  const minLat = Math.max(-90, center.lat - dLat);
  const maxLat = Math.min(90, center.lat + dLat);
  const widest = Math.max(Math.abs(minLat), Math.abs(maxLat));
  const cos = Math.cos((widest * Math.PI) / 180);
  const dLng = cos <= 1e-9 ? 360 : radiusKm / (KM_PER_DEGREE * cos);
  if (dLng >= 180 || center.lng - dLng < -180 || center.lng + dLng > 180) {
    return { minLat, maxLat, minLng: -180, maxLng: 180 };
  }
  return { minLat, maxLat, minLng: center.lng - dLng, maxLng: center.lng + dLng };
}

/**
 * Distance in km from `center` by the equirectangular projection at the centre's latitude: arithmetic
 * only, so the same expression runs in SQL on SQLite and MySQL (`withinRadiusSql` is its twin). Within
 * 1 % of the great-circle distance up to a few hundred km, away from the poles (documented in docs/geo.md).
 */
export function equirectangularKm(center: GeoPoint, point: GeoPoint): number {
  const x = (point.lng - center.lng) * Math.cos((center.lat * Math.PI) / 180);
  const y = point.lat - center.lat;
  return Math.sqrt(x * x + y * y) * KM_PER_DEGREE;
}

/** Great-circle (haversine) distance in km, the reference the approximation is tested against. */
export function haversineKm(a: GeoPoint, b: GeoPoint): number {
  const rad = Math.PI / 180;
  const h =
    Math.sin(((b.lat - a.lat) * rad) / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(((b.lng - a.lng) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * SQL: `(lat, lng)` columns within `radiusKm` of `center`, squared to avoid a square root. The cosine is
 * taken at the centre's latitude (computed here, bound as a parameter); the box prefilter does the rest.
 */
export function withinRadiusSql(
  columns: { lat: string; lng: string },
  center: GeoPoint,
  radiusKm: number,
  key: string,
): { sql: string; params: Record<string, number> } {
  const box = boundingBox(center, radiusKm);
  const p = (name: string) => `${key}${name}`;
  const sql =
    `${columns.lat} BETWEEN :${p('MinLat')} AND :${p('MaxLat')} AND ${columns.lng} BETWEEN :${p('MinLng')} AND :${p('MaxLng')} AND ` +
    `((${columns.lng} - :${p('Lng')}) * :${p('Cos')}) * ((${columns.lng} - :${p('Lng')}) * :${p('Cos')}) + ` +
    `(${columns.lat} - :${p('Lat')}) * (${columns.lat} - :${p('Lat')}) <= :${p('R2')}`;
  const degrees = radiusKm / KM_PER_DEGREE;
  return {
    sql,
    params: {
      [p('MinLat')]: box.minLat,
      [p('MaxLat')]: box.maxLat,
      [p('MinLng')]: box.minLng,
      [p('MaxLng')]: box.maxLng,
      [p('Lng')]: center.lng,
      [p('Lat')]: center.lat,
      [p('Cos')]: Math.cos((center.lat * Math.PI) / 180),
      [p('R2')]: degrees * degrees,
    },
  };
}
