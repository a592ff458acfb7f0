import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { In } from 'typeorm';
import { NumberField } from '../../common/validation/fields';
import { RequestValidationError } from '../../common/validation/request-validation.error';
import { reason } from '../../common/validation/validation-messages';
import { AppConfig } from '../../config/app-config';
import type { SqlCondition } from '../../core/posts/post-visibility';
import { WithMigrations } from '../../database/module-migrations';
import {
  ListEventsQueryDto,
  EventListFilterRegistry,
  type EventListFilter,
  LinkedPostExtensionRegistry,
  type LinkedPostExtension,
} from '../events';
import { CreateVenueDto } from '../venues/dto/create-venue.dto';
import { UpdateVenueDto } from '../venues/dto/update-venue.dto';
import { VENUE_EVENT_LINK } from '../venues/venue.event-link';
import { VENUE_POST_TYPE } from '../venues/venue.post-type';
import { CreateVenueGeo1764200000000 } from './create-venue-geo.migration';
import { withinRadiusSql } from './geo-distance';
import { VenueGeoEntity } from './venue-geo.entity';
import { DatabaseContext } from '../../database/database-context';

/** The radius of a `geoloc_lat`/`geoloc_lng` search when `geoloc_radius` is not given, in km. */
export const DEFAULT_RADIUS_KM = 25;

for (const dto of [CreateVenueDto, UpdateVenueDto]) {
  const describe = (en: string, de: string) => ({ description: { en, de } });
  NumberField({
    ...describe('Latitude (with GEO_ENABLED; give with geo_lng).', 'Breitengrad (mit GEO_ENABLED; mit geo_lng).'),
    min: -90,
    max: 90,
  })(dto.prototype, 'geo_lat');
  NumberField({
    ...describe('Longitude (with GEO_ENABLED; give with geo_lat).', 'Längengrad (mit GEO_ENABLED; mit geo_lat).'),
    min: -180,
    max: 180,
  })(dto.prototype, 'geo_lng');
}
NumberField({
  description: {
    en: `Radius in km of a geoloc_lat/geoloc_lng search (with GEO_ENABLED), default ${DEFAULT_RADIUS_KM}.`,
    de: `Radius in km einer Suche mit geoloc_lat/geoloc_lng (mit GEO_ENABLED), Vorgabe ${DEFAULT_RADIUS_KM}.`,
  },
  default: DEFAULT_RADIUS_KM,
  min: 0.1,
  max: 20000,
})(ListEventsQueryDto.prototype, 'geoloc_radius');

const VENUE_LINK = `SELECT 1 FROM ${VENUE_EVENT_LINK.table} gl INNER JOIN venue_geo g ON g.post_id = gl.${VENUE_EVENT_LINK.column} WHERE gl.event_id = p.id`;

/**
 * Geolocation (contract §4.2's `geoloc*`), when `GEO_ENABLED=true`: venues take `geo_lat`/`geo_lng`
 * (stored as given, never geocoded), and `GET /events` filters by whether the venue has coordinates
 * (`geoloc`) or by distance from `geoloc_lat`/`geoloc_lng` within `geoloc_radius` km: a bounding box on
 * the indexed columns, then the distance. Without it, behaviour.md §7 stands (validated, ignored).
 */
@Injectable()
export class VenueGeo implements LinkedPostExtension, EventListFilter, OnModuleInit {
  readonly type = VENUE_POST_TYPE.type;
  readonly params = ['geoloc_radius'] as const;

  constructor(
    private readonly db: DatabaseContext,
    private readonly config: AppConfig,
    private readonly extensions: LinkedPostExtensionRegistry,
    private readonly filters: EventListFilterRegistry,
  ) {}

  onModuleInit(): void {
    if (!this.config.geoEnabled) return;
    this.extensions.register(this);
    this.filters.register(this);
  }

  async write(postId: number, dto: object): Promise<void> {
    const { geo_lat: lat, geo_lng: lng } = dto as { geo_lat?: number; geo_lng?: number };
    if (lat === undefined && lng === undefined) return;
    if (lat === undefined || lng === undefined) {
      const missing = lat === undefined ? 'geo_lat' : 'geo_lng';
      throw RequestValidationError.of({
        [missing]: reason('needs_pair', missing === 'geo_lat' ? 'geo_lng' : 'geo_lat'),
      });
    }
    await this.db.manager.delete(VenueGeoEntity, { postId });
    await this.db.insertOnly(VenueGeoEntity, { postId, lat, lng });
  }

  async fieldsOf(postIds: number[]): Promise<Map<number, Record<string, unknown>>> {
    if (postIds.length === 0) return new Map();
    const rows = await this.db.manager.findBy(VenueGeoEntity, { postId: In(postIds) });
    return new Map(rows.map((r) => [r.postId, { geo_lat: r.lat, geo_lng: r.lng }]));
  }

  condition(query: Record<string, unknown>): SqlCondition | undefined {
    const lat = query.geoloc_lat as number | undefined;
    const lng = query.geoloc_lng as number | undefined;
    if (lat !== undefined && lng !== undefined) {
      const radius = (query.geoloc_radius as number | undefined) ?? DEFAULT_RADIUS_KM;
      const within = withinRadiusSql({ lat: 'g.lat', lng: 'g.lng' }, { lat, lng }, radius, 'geo');
      return { sql: `EXISTS (${VENUE_LINK} AND ${within.sql})`, params: within.params };
    }
    if (query.geoloc === undefined) return undefined;
    return { sql: `${query.geoloc ? '' : 'NOT '}EXISTS (${VENUE_LINK})`, params: {} };
  }
}

@WithMigrations(CreateVenueGeo1764200000000)
@Module({ imports: [TypeOrmModule.forFeature([VenueGeoEntity])], providers: [VenueGeo] })
export class GeoModule {}
