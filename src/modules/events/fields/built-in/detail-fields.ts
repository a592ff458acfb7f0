import { arrayOf, object, str } from '../../../../common/http/post-schemas';
import { BooleanField, TextOrNumberField, UrlField } from '../../../../common/validation/fields';
import type { CostDetails } from '../../model/event-cost';
import { group } from './built-in-field';
import { as, emptyText, flag, none } from './parts';

/** What the event's details say beside its times: its cost, website and the flags of how the site shows it. */
export const DETAIL_FIELDS = group({
  cost: {
    member: { schema: str, blank: emptyText },
    vevent: none('RFC 5545 has no property for prices'),
    write: {
      series: 'template',
      stored: ({ details }) => details.cost,
      rule: TextOrNumberField({
        description: {
          en: 'The cost, e.g. "15", "10 - 20", "Free" or "€12", or a list of costs such as ["0$", "20$"].',
          de: 'Die Kosten, z. B. "15", "10 - 20", "Free" oder "€12", oder eine Liste wie ["0$", "20$"].',
        },
        maxLength: 255,
      }),
    },
  },
  cost_details: {
    member: as<CostDetails>({
      schema: object({
        currency_symbol: str,
        currency_code: str,
        currency_position: { type: 'string', enum: ['prefix', 'postfix'] },
        values: arrayOf(str),
      }),
      blank: (details) => ({ ...details, values: [] }),
      jsonLd: {
        property: 'offers',
        value: (details, event) =>
          details.values.length > 0
            ? { '@type': 'Offer', price: details.values[0], priceCurrency: details.currency_code, url: event.url }
            : undefined,
      },
    }),
    vevent: none('RFC 5545 has no property for prices'),
  },
  website: {
    member: { schema: str, blank: emptyText },
    vevent: none('URL carries the event page'),
    write: {
      series: 'template',
      stored: ({ details }) => details.website,
      rule: UrlField({
        description: { en: 'The event website.', de: 'Die Website der Veranstaltung.' },
        allowEmpty: true,
      }),
    },
  },
  show_map: flag(
    { series: 'template', stored: ({ details }) => details.showMap },
    BooleanField({ description: { en: 'Whether to show a map.', de: 'Ob eine Karte gezeigt wird.' } }),
    'how the site shows the venue',
  ),
  show_map_link: flag(
    { series: 'template', stored: ({ details }) => details.showMapLink },
    BooleanField({ description: { en: 'Whether to show a map link.', de: 'Ob ein Kartenlink gezeigt wird.' } }),
    'how the site shows the venue',
  ),
  hide_from_listings: flag(
    { series: 'template', stored: ({ details }) => details.hideFromListings },
    BooleanField({
      description: {
        en: 'Whether to hide the event from lists.',
        de: 'Ob die Veranstaltung in Listen verborgen wird.',
      },
    }),
    'a feed lists no event hidden from listings',
  ),
  sticky: flag(
    { series: 'template', stored: ({ details }) => details.sticky },
    BooleanField({
      description: {
        en: 'Whether the event sticks to the top of the calendar view.',
        de: 'Ob die Veranstaltung in der Kalenderansicht oben bleibt.',
      },
    }),
    'the order of the calendar view',
  ),
  featured: flag(
    { series: 'template', stored: ({ details }) => details.featured },
    BooleanField({
      description: { en: 'Whether the event is featured.', de: 'Ob die Veranstaltung hervorgehoben ist.' },
    }),
    'calendar apps have no featured events',
  ),
});
