import { LinkedPostListQueryDto } from '../../../core/posts/dto/linked-post-list-query.dto';

export class ListOrganizersQueryDto extends LinkedPostListQueryDto {}
