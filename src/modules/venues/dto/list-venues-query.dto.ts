import { LinkedPostListQueryDto } from '../../events';

export class ListVenuesQueryDto extends LinkedPostListQueryDto {}
