import { describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { knownMigrationNames } from './applied-migrations';

describe('known migrations', () => {
  it('are listed in the order TypeORM runs them: by name timestamp, ties in list order', () => {
    const source = {
      migrations: [
        { name: 'CreatePosts1763600000000' },
        { name: 'AddListingDays1764200000000' },
        { name: 'AddTermListingDays1764300000000' },
        // A module's migration comes after the base's in the list, but runs by its timestamp.
        { name: 'CreateVenueGeo1764200000000' },
      ],
    } as unknown as DataSource;
    expect(knownMigrationNames(source)).toEqual([
      'CreatePosts1763600000000',
      'AddListingDays1764200000000',
      'CreateVenueGeo1764200000000',
      'AddTermListingDays1764300000000',
    ]);
  });
});
