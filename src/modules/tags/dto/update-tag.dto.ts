import { PartialUpdate } from '../../../common/validation/partial-update';
import { CreateTagDto } from './create-tag.dto';

export class UpdateTagDto extends PartialUpdate(CreateTagDto) {}
