import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * Fields a module adds to a linked post type it does not own (the geolocation module's `geo_lat` and
 * `geo_lng` on venues), kept in its own table: written in the record's transaction, shown in its object.
 */
export interface LinkedPostExtension {
  /** `posts.type` of the records it extends. */
  type: string;
  write(manager: EntityManager, postId: number, dto: object): Promise<void>;
  /** Its fields of many records, in one query. */
  fieldsOf(manager: EntityManager, postIds: number[]): Promise<Map<number, Record<string, unknown>>>;
}

@Injectable()
export class LinkedPostExtensionRegistry {
  private readonly extensions: LinkedPostExtension[] = [];

  register(extension: LinkedPostExtension): void {
    this.extensions.push(extension);
  }

  of(type: string): LinkedPostExtension[] {
    return this.extensions.filter((e) => e.type === type);
  }
}
