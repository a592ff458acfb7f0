import { Module } from '@nestjs/common';
import { LinkedPostTypeModule } from '../events';
import { VENUE_DEFINITION } from './venue.definition';

/** `/cal/events/v1/venues`: a post type with a `venue_details` companion; owns the event ↔ venue links. */
@Module({ imports: [LinkedPostTypeModule.forDefinition(VENUE_DEFINITION)] })
export class VenuesModule {}
