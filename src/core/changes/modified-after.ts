import { parseDateInput, toSqlDateTime } from '../../common/dates/date-input';
import { DateTimeField } from '../../common/validation/fields';
import type { SqlCondition } from '../posts/post-visibility';

/** `modified_after` of every list: records that changed after the date, their own fields or what they embed. */
export const ModifiedAfterField = (): PropertyDecorator =>
  DateTimeField({
    description: {
      en: 'Only records changed at or after this date (whole seconds) (site time zone unless it names one), including changes of what they embed (an event’s venue, terms).',
      de: 'Nur Einträge, die zu oder nach diesem Zeitpunkt (ganze Sekunden) geändert wurden (Zeitzone der Website, wenn es keine nennt), auch durch Änderungen dessen, was sie einbetten (Veranstaltungsort, Begriffe einer Veranstaltung).',
    },
  });

/**
 * The condition "`idColumn` changed at or after `value`" from `change_heads`, for a list's query;
 * undefined when the parameter is absent. Inclusive: stored times have whole seconds, and a client that
 * passes the time of its last read must not miss a change made later in that same second.
 */
export function modifiedAfterCondition(
  resource: string,
  idColumn: string,
  value: string | number | undefined,
  zone: string,
): SqlCondition | undefined {
  if (value === undefined) return undefined;
  const date = parseDateInput(value, zone);
  if (!date) return undefined;
  return {
    sql: `${idColumn} IN (SELECT h.resource_id FROM change_heads h WHERE h.resource = :changeResource AND h.changed_utc >= :modifiedAfter)`,
    params: { changeResource: resource, modifiedAfter: toSqlDateTime(date.toUTC()) },
  };
}
