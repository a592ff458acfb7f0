import { PartialUpdate } from '../../../common/validation/partial-update';
import { CreateVenueDto } from './create-venue.dto';

export class UpdateVenueDto extends PartialUpdate(CreateVenueDto) {}
