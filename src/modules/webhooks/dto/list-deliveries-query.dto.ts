import { PaginationQueryDto } from '../../../common/pagination/pagination-query.dto';
import { EnumField } from '../../../common/validation/fields';

/** `GET /webhooks/{id}/deliveries`: newest first. */
export class ListDeliveriesQueryDto extends PaginationQueryDto {
  @EnumField({
    description: { en: 'Only deliveries in this state.', de: 'Nur Zustellungen in diesem Zustand.' },
    values: ['pending', 'delivered', 'failed', 'cancelled'],
  })
  status?: 'pending' | 'delivered' | 'failed' | 'cancelled';
}
