import { PartialUpdate } from '../../../common/validation/partial-update';
import { CreateOrganizerDto } from './create-organizer.dto';

export class UpdateOrganizerDto extends PartialUpdate(CreateOrganizerDto) {}
