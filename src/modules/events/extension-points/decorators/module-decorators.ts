import type { DynamicModule } from '@nestjs/common';
import type { ObjectLiteral } from 'typeorm';
import { EventChildResourceModule } from '../children/event-child-resource.module';
import type { EventChildEntity, EventChildResourceDefinition } from '../children/event-child-resource';
import type { LinkedPostTypeDefinition } from '../linked/linked-post-type.definition';
import { LinkedPostTypeModule } from '../linked/linked-post-type.module';
import { StoredEventFieldModule } from '../stored-fields/stored-event-field.module';
import type { StoredEventFieldDefinition } from '../stored-fields/stored-event-field';
import type { EventTaxonomyDefinition } from '../taxonomies/event-taxonomy';
import { EventTaxonomyModule } from '../taxonomies/event-taxonomy.module';

const SEAMS = 'cal:seam-imports';

/**
 * A class decorator that adds a seam's module to the Nest module it decorates (which needs no `@Module()` of
 * its own then). Beside a `@Module()`, it goes above it: decorators run bottom-up, and `@Module({ imports })`
 * run after it would replace what it added ({@link seamsMissing} finds that at start).
 */
function importing(build: () => DynamicModule): ClassDecorator {
  return (target) => {
    const module = build();
    const imports = (Reflect.getMetadata('imports', target) as unknown[] | undefined) ?? [];
    Reflect.defineMetadata('imports', [...imports, module], target);
    const seams = (Reflect.getMetadata(SEAMS, target) as unknown[] | undefined) ?? [];
    Reflect.defineMetadata(SEAMS, [...seams, module], target);
  };
}

/** The seams decorated on `module` that its `imports` lost (a `@Module()` written above the decorator). */
export function seamsMissing(module: object): number {
  const seams = (Reflect.getMetadata(SEAMS, module) as unknown[] | undefined) ?? [];
  const imports = (Reflect.getMetadata('imports', module) as unknown[] | undefined) ?? [];
  return seams.filter((seam) => !imports.includes(seam)).length;
}

/** A post type events link to (`/speakers`, the events' `speaker`), from its definition. */
export function LinkedPostType<
  TDetails extends { postId: number },
  TLink extends ObjectLiteral,
  TObject extends { id: number },
  TUpdate,
>(definition: LinkedPostTypeDefinition<TDetails, TLink, TObject, TUpdate>): ClassDecorator {
  return importing(() => LinkedPostTypeModule.forDefinition(definition));
}

/** A taxonomy on events (`/audiences`, the events' `audiences`), from its definition. */
export function EventTaxonomy(definition: EventTaxonomyDefinition): ClassDecorator {
  return importing(() => EventTaxonomyModule.forDefinition(definition));
}

/** An event field stored with the service's own rows (`capacity`), with its filters, from its definition. */
export function StoredEventField(definition: StoredEventFieldDefinition): ClassDecorator {
  return importing(() => StoredEventFieldModule.forField(definition));
}

/** Records under `/events/{id}/<path>` (tickets, sessions), from their definition. */
export function EventChildResource<TEntity extends EventChildEntity, TCreate extends object, TUpdate extends object>(
  definition: EventChildResourceDefinition<TEntity, TCreate, TUpdate>,
): ClassDecorator {
  return importing(() => EventChildResourceModule.forDefinition(definition));
}
