import { LinkedPostListQueryDto } from '../../events';

export class ListOrganizersQueryDto extends LinkedPostListQueryDto {}
