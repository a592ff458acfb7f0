import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { BooleanField } from '../../src/common/validation/fields';
import type { SqlCondition } from '../../src/core/posts/post-visibility';
import { declareEventListParam, EventListFilterRegistry } from '../../src/modules/events';

declareEventListParam(
  'all_day',
  BooleanField({
    description: { en: 'All-day events (true) or timed ones (false).', de: 'Ganztägige (true) oder nicht.' },
    samples: ['true', 'false'],
  }),
);

/** `GET /events?all_day=true|false`: one condition on the event's own row. */
@Injectable()
export class AllDayFilter implements OnModuleInit {
  readonly params = ['all_day'] as const;

  constructor(private readonly filters: EventListFilterRegistry) {}

  onModuleInit(): void {
    this.filters.register(this);
  }

  condition(query: { all_day?: boolean }): SqlCondition | undefined {
    return query.all_day === undefined
      ? undefined
      : { sql: 'd.all_day = :allDay', params: { allDay: Number(query.all_day) } };
  }
}

@Module({ providers: [AllDayFilter] })
export class AllDayModule {}
