import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { PostEntity } from '../../../core/posts/post.entity';
import { LinkedRecordsReader } from '../extension-points/linked/linked-records.reader';
import { EventFieldRegistry } from '../extension-points/links/event-field';
import { assertWriteFieldsClassified, seriesSharingOf } from '../fields/event-field-declarations';
import { EventLinkRegistry } from '../extension-points/links/event-links.module';
import { EventTaxonomyRegistry } from '../extension-points/taxonomies/event-taxonomy';
import { templateFieldsOf } from '../fields/event-write-fields';
import type { EventDetailsEntity } from '../model/event-details.entity';

/**
 * What a series' template holds (behaviour.md §11): every write field its occurrences share, as the catalogue
 * of event fields and each module's declaration say. A service with a write field that says nothing of series
 * does not start.
 */
@Injectable()
export class SeriesTemplates implements OnModuleInit {
  constructor(
    private readonly linkedRecords: LinkedRecordsReader,
    private readonly links: EventLinkRegistry,
    private readonly fields: EventFieldRegistry,
    private readonly eventTaxonomies: EventTaxonomyRegistry,
  ) {}

  onModuleInit(): void {
    assertWriteFieldsClassified();
  }

  /**
   * The write fields every occurrence shares, read from an occurrence as stored (terms and links as ids, so
   * inline objects are not made again), plus the modules' write fields among `writeFields`.
   */
  async sharedFieldsOf(
    post: PostEntity,
    details: EventDetailsEntity,
    writeFields: object,
  ): Promise<Record<string, unknown>> {
    const taxonomies = this.eventTaxonomies.termFields();
    const links = this.links.all();
    const embeds = await this.linkedRecords.of(
      [post.id],
      links.map((l) => l.target.linkedRecordsSource),
      taxonomies.map((t) => t.taxonomy),
    );
    const terms = embeds.terms.get(post.id) ?? [];
    const fields = templateFieldsOf({ post, details });
    for (const { field, taxonomy } of taxonomies) {
      fields[field] = terms.filter((t) => t.taxonomy === taxonomy).map((t) => t.id);
    }
    for (const [index, { definition }] of links.entries()) {
      fields[definition.field] = embeds.links[index].map((l) => l.post.id);
    }
    const given = writeFields as Record<string, unknown>;
    for (const field of this.fields.all()) {
      if (field.save && given[field.name] !== undefined && seriesSharingOf(field.name) === 'template')
        fields[field.name] = given[field.name];
    }
    return fields;
  }
}
