import { Injectable, Module } from '@nestjs/common';
import { BooleanField, EventFilter, type EventFilterSource, type SqlCondition } from '../../src/extend';

/** `GET /events?all_day=true|false`: one condition on the event's own row. */
@EventFilter({
  params: {
    all_day: BooleanField({
      description: { en: 'All-day events (true) or timed ones (false).', de: 'Ganztägige (true) oder nicht.' },
      samples: ['true', 'false'],
    }),
  },
})
@Injectable()
export class AllDayFilter implements EventFilterSource {
  condition(query: { all_day?: boolean }): SqlCondition | undefined {
    return query.all_day === undefined
      ? undefined
      : { sql: 'd.all_day = :allDay', params: { allDay: Number(query.all_day) } };
  }
}

@Module({ providers: [AllDayFilter] })
export class AllDayModule {}
