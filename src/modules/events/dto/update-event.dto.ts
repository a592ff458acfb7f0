import { PartialType } from '@nestjs/swagger';
import { CreateEventDto } from './create-event.dto';

/** Every field optional; omitted fields keep their stored value. */
export class UpdateEventDto extends PartialType(CreateEventDto) {}
