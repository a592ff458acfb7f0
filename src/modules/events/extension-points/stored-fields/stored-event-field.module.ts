import { applyDecorators, Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';
import { docText } from '../../../../common/i18n/doc-text';
import type { Localized } from '../../../../common/i18n/language';
import { BooleanField, IntegerField, StringField } from '../../../../common/validation/fields';
import { DatabaseContext } from '../../../../database/database-context';
import { declareEventField, declareEventListParam } from '../../fields/event-field-declarations';
import { EventFieldRegistry } from '../links/event-field';
import { EventListFilterRegistry } from '../links/event-list-filter';
import { EventFieldValueEntity } from './event-field-value.entity';
import { storedText, type StoredEventFieldDefinition } from './stored-event-field';
import { StoredEventField } from './stored-event-field.service';

const MAX_TEXT = 2048;
const SCHEMA_TYPES = { integer: 'integer', boolean: 'boolean', text: 'string' } as const;

/** The rule of a value of the field's type, as its write field and its filters take it. */
function ruleOf(
  definition: StoredEventFieldDefinition,
  description: Localized,
  samples?: readonly string[],
): PropertyDecorator {
  const { type, min, max } = definition;
  const documented = { description, ...(samples !== undefined ? { samples } : {}) };
  if (type === 'integer') return IntegerField({ ...documented, min, max });
  if (type === 'boolean') return BooleanField(documented);
  return StringField({ ...documented, maxLength: Math.min(definition.maxLength ?? MAX_TEXT, MAX_TEXT) });
}

/** `""` and `null` reach the field as `null`, which clears it: no rule of the type is asked about them. */
const clearable = (rule: PropertyDecorator): PropertyDecorator =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) => (value === '' ? null : value)),
    rule,
    ValidateIf((_object: unknown, value: unknown) => value !== null && value !== ''),
  );

/**
 * A module's stored event field from its declaration:
 * `@Module({ imports: [StoredEventFieldModule.forField(CAPACITY)] })` (examples/capacity).
 */
@Module({})
export class StoredEventFieldModule {
  static forField(definition: StoredEventFieldDefinition): DynamicModule {
    const { name, type } = definition;
    if (!/^[a-z][a-z0-9_]{0,63}$/.test(name))
      throw new Error(`the stored event field "${name}" needs a snake_case name`);
    declareEventField({
      name,
      schema: { type: SCHEMA_TYPES[type], nullable: true, description: docText(definition.description) },
      writeRule: clearable(ruleOf(definition, definition.description)),
      series: definition.series,
      jsonLd: definition.jsonLd ? { property: definition.jsonLd } : undefined,
      ical: definition.ical
        ? { property: definition.ical, text: (value) => (value === null ? undefined : storedText(value)) }
        : undefined,
    });
    for (const filter of definition.filters ?? [])
      declareEventListParam(filter.param, ruleOf(definition, filter.description, filter.samples));
    return {
      module: StoredEventFieldModule,
      imports: [TypeOrmModule.forFeature([EventFieldValueEntity])],
      providers: [
        {
          provide: `stored-event-field:${name}`,
          inject: [DatabaseContext, EventFieldRegistry, EventListFilterRegistry],
          useFactory: (db: DatabaseContext, fields: EventFieldRegistry, filters: EventListFilterRegistry) => {
            const field = new StoredEventField(definition, db);
            fields.register(field);
            if (field.params.length > 0) filters.register(field);
            return field;
          },
        },
      ],
    };
  }
}
