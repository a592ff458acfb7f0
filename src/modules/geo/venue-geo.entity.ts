import { Column, Entity, PrimaryColumn } from 'typeorm';

const asNumber = { to: (value: number) => value, from: (value: string | number) => Number(value) };

/** A venue's coordinates, as given by a client (never geocoded here); kept by the geolocation module. */
@Entity('venue_geo')
export class VenueGeoEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @Column({ type: 'decimal', precision: 9, scale: 6, transformer: asNumber })
  lat!: number;

  @Column({ type: 'decimal', precision: 9, scale: 6, transformer: asNumber })
  lng!: number;
}
