import {
  withoutEmpty,
  linkedObjectSchema,
  WithMigrations,
  linkedObjectHead,
  type LinkedPostTypeDefinition,
  LinkedPostType,
} from '../../src/extend';
import { CreateSpeakerDto, ListSpeakersQueryDto, UpdateSpeakerDto } from './speaker.dto';
import { SpeakerDetailsEntity } from './speaker.entities';
import { CreateSpeakers1790000000000 } from './speaker.migration';

const SPEAKER = { type: 'cal_speaker', noun: 'speaker', label: { en: 'speaker', de: 'Person' } };
type SpeakerObject = Record<string, unknown> & { id: number };

/** People who speak at events: `/cal/events/v1/speakers`, linked from events as `speaker` (a list). */
export const SPEAKER_DEFINITION: LinkedPostTypeDefinition<
  SpeakerDetailsEntity,
  object,
  SpeakerObject,
  UpdateSpeakerDto
> = {
  def: SPEAKER,
  restBase: 'speakers',
  createDto: CreateSpeakerDto,
  updateDto: UpdateSpeakerDto,
  listQueryDto: ListSpeakersQueryDto,
  nameOf: (dto) => dto.speaker,
  newDetails: (postId) => Object.assign(new SpeakerDetailsEntity(), { postId, affiliation: '', website: '' }),
  applyDetails: (details, dto) => {
    if (dto.affiliation !== undefined) details.affiliation = dto.affiliation.trim();
    if (dto.website !== undefined) details.website = dto.website.trim();
  },
  toObject: (post, details, image, ctx, nowUtc) =>
    withoutEmpty({
      ...linkedObjectHead(SPEAKER, 'speakers', post, image, ctx, nowUtc),
      affiliation: details.affiliation,
      website: details.website,
    }) as SpeakerObject,
  jsonLd: (speaker) =>
    withoutEmpty({
      '@context': 'http://schema.org',
      '@type': 'Person',
      name: speaker.speaker,
      affiliation: speaker.affiliation,
    }),
  tables: { details: SpeakerDetailsEntity, searchColumns: ['p.title', 'p.content', 'p.excerpt', 'd.affiliation'] },
  eventLink: {
    field: 'speaker',
    cardinality: 'many',
    jsonLdProperty: 'performer',
    table: 'event_speakers',
    column: 'speaker_id',
    writeDescription: {
      en: 'The speakers, in order: IDs, {id} objects or speaker objects.',
      de: 'Die Vortragenden, in dieser Reihenfolge.',
    },
    filterDescription: { en: 'Events with any of these speakers.', de: 'Veranstaltungen mit einer dieser Personen.' },
  },
  openApi: {
    schema: linkedObjectSchema('speaker', { affiliation: { type: 'string' }, website: { type: 'string' } }),
    examples: {
      create: { speaker: 'Ada Lovelace', affiliation: 'Analytical Engines Ltd' },
      update: { website: 'https://example.org' },
    },
  },
  texts: {
    en: { a: 'a speaker', the: 'speaker', many: 'speakers' },
    de: { a: 'eine Person', of: 'der Person', many: 'Vortragende' },
  },
};

@LinkedPostType(SPEAKER_DEFINITION)
@WithMigrations(CreateSpeakers1790000000000)
export class SpeakersModule {}
