import { PartialUpdate } from '../../../common/validation/partial-update';
import { CreateImportDto } from './create-import.dto';

/** `POST/PUT/PATCH /imports/{id}`: any field; a changed URL forgets the last answer's validators. */
export class UpdateImportDto extends PartialUpdate(CreateImportDto) {}
