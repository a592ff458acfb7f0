import { Module } from '@nestjs/common';
import { LinkedPostTypeModule } from '../events';
import { ORGANIZER_DEFINITION } from './organizer.definition';

/** `/cal/events/v1/organizers`: a post type with an `organizer_details` companion; owns the event ↔ organizer links. */
@Module({ imports: [LinkedPostTypeModule.forDefinition(ORGANIZER_DEFINITION)] })
export class OrganizersModule {}
