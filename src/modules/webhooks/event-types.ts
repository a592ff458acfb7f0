import { CHANGE_ACTIONS } from '../../database/changes/recorded-change';

/** `event.created`, `venue.*`, `*`: what an endpoint subscribes to. */
export const EVENT_TYPE_PATTERN = /^(\*|[a-z][a-z0-9_]{0,31}\.(\*|[a-z_]{1,16}))$/;

export const typeOf = (resource: string, action: string): string => `${resource}.${action}`;

/** Whether a subscription list covers an event type. */
export function subscribes(patterns: readonly string[], type: string): boolean {
  const resource = type.slice(0, type.indexOf('.'));
  return patterns.some((p) => p === '*' || p === type || p === `${resource}.*`);
}

/** The event types of one resource kind, for documentation and validation messages. */
export const typesOf = (resource: string): string[] => CHANGE_ACTIONS.map((a) => typeOf(resource, a));
