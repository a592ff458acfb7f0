import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, Matches, ValidateIf } from 'class-validator';
import { docText } from '../../../common/i18n/doc-text';
import { reason } from '../../../common/validation/validation-messages';
import { StringField, UrlField } from '../../../common/validation/fields';
import { parseList } from '../../../common/validation/parsers';
import { EVENT_TYPE_PATTERN } from '../event-types';

/** `POST /webhooks`. */
export class CreateWebhookDto {
  @UrlField({
    description: {
      en: 'Where deliveries are POSTed. Loopback, private and link-local addresses are refused unless WEBHOOKS_ALLOW_PRIVATE=true.',
      de: 'Wohin Zustellungen gesendet werden. Loopback-, private und Link-Local-Adressen werden abgelehnt, außer mit WEBHOOKS_ALLOW_PRIVATE=true.',
    },
    required: true,
  })
  url!: string;

  @ApiPropertyOptional({
    description: docText({
      en: 'Event types to deliver: `event.created`, `venue.*`, `*` (default), … (resource.action).',
      de: 'Zuzustellende Ereignistypen: `event.created`, `venue.*`, `*` (Standard), … (Ressource.Aktion).',
    }),
    type: 'string',
    isArray: true,
  })
  @Transform(({ value }: { value: unknown }) => (value === undefined ? undefined : parseList(value)))
  @ValidateIf((_o: unknown, value: unknown) => value !== undefined)
  @IsArray({ message: reason('list_of', 'event types such as event.created, venue.* or *') })
  @ArrayNotEmpty({ message: reason('not_empty') })
  @ArrayMaxSize(50, { message: reason('max', 50) })
  @Matches(EVENT_TYPE_PATTERN, {
    each: true,
    message: reason('list_of', 'event types such as event.created, venue.* or *'),
  })
  events?: string[];

  @StringField({
    description: { en: 'A note for administrators.', de: 'Eine Notiz für Administratoren.' },
    maxLength: 200,
  })
  description?: string;

  @StringField({
    description: {
      en: 'The signing secret (at least 24 characters); generated when absent. Shown only in the answer to the request that sets it.',
      de: 'Das Signaturgeheimnis (mindestens 24 Zeichen); ohne Angabe erzeugt. Nur in der Antwort der Anfrage sichtbar, die es setzt.',
    },
    maxLength: 200,
    minLength: 24,
  })
  secret?: string;
}
