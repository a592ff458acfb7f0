/**
 * TEC's CSV layouts (its importer's column names, matched whatever their case and spacing), each column with
 * what it fills here: a write field of the type's DTO, or a part of one that `csv-rows.ts` puts together
 * (`@start_date`, `@start_time`: the start; `@currency_symbol`: the cost's). A column named as a write field
 * itself (`title`, `start_date`) is taken as that field; `--map` names others. Columns TEC exports that have
 * no meaning here are accepted and listed in the report as not imported.
 */
export interface CsvLayout {
  /** Column name (normalised: `csvKey`) → the field or part it fills. */
  readonly columns: Readonly<Record<string, string>>;
  /** The fields a row cannot do without: the name and the record's key here. */
  readonly required: readonly string[];
  /** The fields that name a record: what matches it again on the next import of any CSV of this type. */
  readonly key: readonly string[];
  /** Columns TEC writes that carry nothing kept here. */
  readonly unused: readonly string[];
  /** Each field or part by TEC's name of its (first) column, as messages name it. */
  readonly labels: Readonly<Record<string, string>>;
}

/** A column's name as it is matched: case, spacing and punctuation around words ignored. */
export function csvKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');
}

const layout = (
  columns: Record<string, string>,
  required: string[],
  key: string[],
  unused: string[] = [],
): CsvLayout => ({
  columns: Object.fromEntries(Object.entries(columns).map(([name, field]) => [csvKey(name), field])),
  required,
  key,
  unused: unused.map(csvKey),
  labels: Object.fromEntries(
    Object.entries(columns)
      .reverse()
      .map(([name, field]) => [field, name]),
  ),
});

export const TEC_CSV_LAYOUTS: Readonly<Record<string, CsvLayout>> = {
  events: layout(
    {
      'Event Name': 'title',
      'Event Description': 'description',
      'Event Excerpt': 'excerpt',
      'Event Start Date': '@start_date',
      'Event Start Time': '@start_time',
      'Event End Date': '@end_date',
      'Event End Time': '@end_time',
      'All Day Event': 'all_day',
      Timezone: 'timezone',
      'Event Venue Name': 'venue',
      'Event Organizer Name': 'organizer',
      'Event Organizers': 'organizer',
      'Event Category': 'categories',
      'Event Tags': 'tags',
      'Event Cost': 'cost',
      'Event Currency Symbol': '@currency_symbol',
      'Event Currency Position': '@currency_position',
      'Event Featured Image': 'image',
      'Event Website': 'website',
      'Event Show Map Link': 'show_map_link',
      'Event Show Map': 'show_map',
      'Hide from Event Listings': 'hide_from_listings',
      'Sticky in Month View': 'sticky',
      'Event Featured': 'featured',
      'Featured Event': 'featured',
    },
    ['title', '@start_date'],
    ['title', '@start'],
    ['Event ISO Currency Code', 'Allow Comments', 'Allow Trackbacks and Pingbacks', 'Event Phone'],
  ),
  venues: layout(
    {
      'Venue Name': 'venue',
      'Venue Description': 'description',
      'Venue Address': 'address',
      'Venue City': 'city',
      'Venue Country': 'country',
      'Venue State/Province': 'stateprovince',
      'Venue State': 'state',
      'Venue Province': 'province',
      'Venue Zip': 'zip',
      'Venue Phone': 'phone',
      'Venue Website': 'website',
      'Venue URL': 'website',
      'Venue Featured Image': 'image',
    },
    ['venue'],
    ['venue'],
    ['Venue Address 2'],
  ),
  organizers: layout(
    {
      'Organizer Name': 'organizer',
      'Organizer Description': 'description',
      'Organizer Email': 'email',
      'Organizer Website': 'website',
      'Organizer Phone': 'phone',
      'Organizer Featured Image': 'image',
    },
    ['organizer'],
    ['organizer'],
  ),
};
