import { nullableBool } from '../../../../common/http/post-schemas';
import { POST_HEAD } from '../../../../common/http/post-schemas';
import type { EventMember } from '../event-member-types';
import type { SeriesSharing } from '../series-sharing';

/** The parts several built-in fields share, named once. */
export const as = <V>(member: EventMember<V>): EventMember<V> => member;
export const HEAD = (name: keyof typeof POST_HEAD) => ({ schema: POST_HEAD[name] });
export const emptyText = (): string => '';
export const none = (why: string) => ({ none: why });
export const readBack = none('read back from other members: not a property of its own');
export const times = { series: 'times' } as const;
export const model = { series: 'model' } as const;

/** A flag of the event's details: blanked on a protected event, shared by a series, not in feeds. */
export const flag = (stored: SeriesSharing & { series: 'template' }, rule: PropertyDecorator, why: string) => ({
  member: as<boolean | null>({ schema: nullableBool, blank: () => null }),
  vevent: none(why),
  write: { ...stored, rule },
});
