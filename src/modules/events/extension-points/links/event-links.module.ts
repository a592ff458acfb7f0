import { Global, Injectable, Module, type InjectionToken, type Provider } from '@nestjs/common';
import type { EventLink, EventLinkDefinition, EventLinkTarget } from './event-link';
import { LinkedPostExtensionRegistry } from '../linked/linked-post-extension';
import { declareEventLinkFields } from './event-link-fields';
import { EventListFilterRegistry } from './event-list-filter';
import { EventFieldRegistry } from './event-field';
import { EventTaxonomyRegistry } from '../taxonomies/event-taxonomy';
import { EventChildRegistry } from '../children/event-child-registry';
import { DiscoveryModule as NestDiscoveryModule } from '@nestjs/core';
import { DecoratedExtensions } from '../decorators/provider-decorators';

/** The links events have, in the order their modules registered. */
@Injectable()
export class EventLinkRegistry {
  private readonly links: EventLink[] = [];

  register(definition: EventLinkDefinition, target: EventLinkTarget): void {
    this.links.push({ definition, target });
  }

  all(): readonly EventLink[] {
    return this.links;
  }
}

/**
 * Where post-type modules declare how events link to them, among their own providers:
 * `providers: [VenuesService, EventLinksModule.link(VENUE_EVENT_LINK, VenuesService)]`.
 */
const REGISTRIES = [
  EventLinkRegistry,
  EventListFilterRegistry,
  LinkedPostExtensionRegistry,
  EventFieldRegistry,
  EventTaxonomyRegistry,
  EventChildRegistry,
];

/**
 * (Also holds the other seams of the events module: list filters, event fields and fields added to linked
 * types.) Global: every module that extends events registers here, a deployment's extensions included, which
 * must not need to know where the events module sits.
 */
@Global()
@Module({ imports: [NestDiscoveryModule], providers: [...REGISTRIES, DecoratedExtensions], exports: REGISTRIES })
export class EventLinksModule {
  static link(definition: EventLinkDefinition, target: InjectionToken<EventLinkTarget>): Provider {
    declareEventLinkFields(definition);
    return {
      provide: `event-link:${definition.field}`,
      useFactory: (registry: EventLinkRegistry, service: EventLinkTarget) => {
        registry.register(definition, service);
        return definition;
      },
      inject: [EventLinkRegistry, target],
    };
  }
}
