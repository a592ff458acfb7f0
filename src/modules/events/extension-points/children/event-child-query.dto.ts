import { PaginationQueryDto } from '../../../../common/pagination/pagination-query.dto';
import { StringField } from '../../../../common/validation/fields';

const PASSWORD = {
  description: {
    en: "The event's password: it opens the children of a protected event as it opens the event.",
    de: 'Das Passwort der Veranstaltung: es öffnet ihre Einträge wie die Veranstaltung selbst.',
  },
  maxLength: 255,
};

/** A child list's query: its page, and the event's password. */
export class EventChildListQueryDto extends PaginationQueryDto {
  @StringField(PASSWORD)
  password?: string;
}

/** A child read's query: the event's password. */
export class EventChildReadQueryDto {
  @StringField(PASSWORD)
  password?: string;
}
