import { LinkedPostListQueryDto } from '../../events/linked/linked-post-list-query.dto';

export class ListVenuesQueryDto extends LinkedPostListQueryDto {}
