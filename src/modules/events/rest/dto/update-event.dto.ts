import { PartialUpdate } from '../../../../common/validation/partial-update';
import { CreateEventDto } from './create-event.dto';

/** Every field optional; omitted fields keep their stored value. */
export class UpdateEventDto extends PartialUpdate(CreateEventDto) {}
