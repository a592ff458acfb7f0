import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { declareEventField, declareEventListParam } from '../../fields/event-field-declarations';
import { EventFieldRegistry, type EventField } from '../links/event-field';
import { EventListFilterRegistry, type EventListFilter } from '../links/event-list-filter';

const MEMBER = 'cal:event-member';
const FILTER = 'cal:event-filter';

/** What `@EventMember()` declares: the member's name, OpenAPI schema, write rule, json_ld and feed property. */
export type EventMemberDeclaration = Parameters<typeof declareEventField>[0];

/** A provider that reads an event member for a page of events: an {@link EventField} but for its name. */
export type EventMemberSource<V = unknown> = Omit<EventField<V>, 'name'>;

/** A provider that filters `GET /events`: an {@link EventListFilter} but for its parameters. */
export type EventFilterSource = Omit<EventListFilter, 'params'>;

/**
 * An event member (`duration_minutes`, `tickets`) read by the decorated provider, declared where the class
 * is: its schema, rule and properties now, and the provider registered when the application starts
 * (found among the providers by Nest's discovery). No `declareEventField()` or `register(this)` to add.
 */
export function EventMember(declaration: EventMemberDeclaration): ClassDecorator {
  declareEventField(declaration);
  return (target) => Reflect.defineMetadata(MEMBER, declaration.name, target);
}

/**
 * A filter of `GET /events` (and its feeds and the alias) made by the decorated provider, with each query
 * parameter it takes and that parameter's rule (`BooleanField(...)`), or `null` for one the contract names
 * already (`ticketed`). Like every module's filter, it never matches what a password hides from the caller.
 */
export function EventFilter(declaration: { params: Record<string, PropertyDecorator | null> }): ClassDecorator {
  for (const [name, rule] of Object.entries(declaration.params)) if (rule) declareEventListParam(name, rule);
  return (target) => Reflect.defineMetadata(FILTER, Object.keys(declaration.params), target);
}

/** Registers every provider `@EventMember()` or `@EventFilter()` decorated, in the order Nest holds them. */
@Injectable()
export class DecoratedExtensions implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly fields: EventFieldRegistry,
    private readonly filters: EventListFilterRegistry,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const { instance, metatype } = wrapper as { instance: unknown; metatype: unknown };
      if (!instance || typeof metatype !== 'function') continue;
      const member = Reflect.getMetadata(MEMBER, metatype) as string | undefined;
      const params = Reflect.getMetadata(FILTER, metatype) as string[] | undefined;
      // The instance as the prototype: its methods run on it with its own injected services.
      if (member !== undefined)
        this.fields.register(Object.create(instance, { name: { value: member } }) as EventField);
      if (params !== undefined)
        this.filters.register(Object.create(instance, { params: { value: params } }) as EventListFilter);
    }
  }
}
