import { Injectable } from '@nestjs/common';

/**
 * Fields a module adds to a linked post type it does not own (the geolocation module's `geo_lat` and
 * `geo_lng` on venues), kept in its own table: written in the record's transaction, shown in its object.
 */
export interface LinkedPostExtension {
  /** `posts.type` of the records it extends. */
  type: string;
  write(postId: number, dto: object): Promise<void>;
  /** Its fields of many records, in one query. */
  fieldsOf(postIds: number[]): Promise<Map<number, Record<string, unknown>>>;
}

@Injectable()
export class LinkedPostExtensionRegistry {
  private readonly extensions: LinkedPostExtension[] = [];

  register(extension: LinkedPostExtension): void {
    this.extensions.push(extension);
  }

  all(): readonly LinkedPostExtension[] {
    return this.extensions;
  }

  of(type: string): LinkedPostExtension[] {
    return this.extensions.filter((e) => e.type === type);
  }
}
