import { PartialUpdate } from '../../../common/validation/partial-update';
import { CreateCategoryDto } from './create-category.dto';

export class UpdateCategoryDto extends PartialUpdate(CreateCategoryDto) {}
