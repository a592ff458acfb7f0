import { DateTimeField, IntegerField, StringField } from '../../src/extend';

const NAME = { en: 'The ticket name.', de: 'Der Name des Tickets.' };

/** What a ticket write may set besides its name; every field may be left out. */
class TicketFieldsDto {
  @StringField({ description: { en: 'The price, as shown.', de: 'Der Preis, wie angezeigt.' }, maxLength: 20 })
  price?: string;

  @IntegerField({ description: { en: 'How many there are.', de: 'Wie viele es gibt.' }, min: 0, max: 1_000_000 })
  capacity?: number;

  @DateTimeField({ description: { en: 'Sales open (UTC).', de: 'Verkaufsbeginn (UTC).' } })
  sale_start?: string;

  @DateTimeField({ description: { en: 'Sales close (UTC).', de: 'Verkaufsende (UTC).' } })
  sale_end?: string;
}

// The name's rule is written twice: a required rule inherited beside an optional one would be optional.
export class CreateTicketDto extends TicketFieldsDto {
  @StringField({ description: NAME, required: true, notEmpty: true, maxLength: 200 })
  name!: string;
}

export class UpdateTicketDto extends TicketFieldsDto {
  @StringField({ description: NAME, notEmpty: true, maxLength: 200 })
  name?: string;
}
