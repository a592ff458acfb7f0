import { PaginationQueryDto } from '../../../../common/pagination/pagination-query.dto';
import { BooleanField, EnumListField, IntegerField, StringField } from '../../../../common/validation/fields';
import { POST_STATUSES, type PostStatus } from '../../../../core/posts/post-status';
import { ModifiedAfterField } from '../../../../core/changes/modified-after';

/** The list query venues and organizers share (contract §4.4, §4.5). */
export class LinkedPostListQueryDto extends PaginationQueryDto {
  @StringField({
    description: {
      en: 'Limit results to records where one field (name, description, excerpt or a contact or address field) contains every word.',
      de: 'Nur Einträge, bei denen ein Feld (Name, Beschreibung, Auszug oder ein Kontakt- oder Adressfeld) jedes Wort enthält.',
    },
    maxLength: 200,
    notEmpty: true,
  })
  search?: string;

  @IntegerField({
    description: {
      en: 'Limit results to those linked to this event ID.',
      de: 'Nur Einträge, die mit dieser Veranstaltung verknüpft sind.',
    },
    min: 1,
  })
  event?: number;

  @BooleanField({
    description: {
      en: 'Limit results to those linked to at least one event that is not a draft or pending (true), or to none (false).',
      de: 'Nur Einträge mit (true) oder ohne (false) mindestens eine Veranstaltung, die kein Entwurf und nicht ausstehend ist.',
    },
  })
  has_events?: boolean;

  @BooleanField({
    description: {
      en: 'Limit results to those linked to a visible event that starts now or later.',
      de: 'Nur Einträge mit einer sichtbaren Veranstaltung, die jetzt oder später beginnt.',
    },
    default: false,
  })
  only_with_upcoming?: boolean;

  @EnumListField({
    description: { en: 'Limit results to these post statuses.', de: 'Nur Einträge mit diesen Status.' },
    values: POST_STATUSES,
    nonEmpty: true,
  })
  status?: PostStatus[];

  @ModifiedAfterField()
  modified_after?: string | number;
}
