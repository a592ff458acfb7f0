import { Injectable } from '@nestjs/common';
import type { AuthUser } from '../../../../auth/auth-user';
import type { RequestContext } from '../../../../common/http/request-context';
import { isDeclared } from '../../fields/event-field-declarations';

/**
 * A member a module adds to the event object (a ticket summary, a rating), read for a whole page at once.
 * Declared first with {@link declareEventField} (its OpenAPI schema, its write rule), then registered with
 * `EventFieldRegistry` by the provider that reads it. With `save`, it is a write field too: validated by
 * the declared rule and saved in the event write's transaction. Stored event documents hold it like any other member, within
 * what it declares: `dependsOnCaller` keeps documents from signed-in callers, `validUntil` ends a
 * document's life when the value turns with the clock.
 */
export interface EventField<V = unknown> {
  /** The member's name in the event object (and the write field's, with `save`), as declared. */
  readonly name: string;
  /** What events without a value show, and what a password-protected event shows unread. */
  readonly empty: V;
  /** The values of many events in one go (a fixed number of queries per page). */
  valuesOf(eventIds: number[], ctx: RequestContext): Promise<Map<number, V>>;
  /**
   * True when the value differs between callers (the caller's own tickets): stored documents then serve
   * anonymous callers only, and signed-in callers get the event assembled for them.
   */
  readonly dependsOnCaller?: boolean;
  /**
   * For a value that turns with time ("on sale now"): the UTC instant (`YYYY-MM-DD HH:mm:ss`) until which it
   * stays as built, or null when only a write changes it. A stored document is not served from then on.
   */
  validUntil?(value: V, nowUtc: string): string | null;
  /** Saves the write field's value (as its rule validated it) for the event, inside the write's transaction. */
  save?(eventId: number, value: unknown, write: { user: AuthUser | null; created: boolean }): Promise<void>;
  /**
   * `save` for many events given the same value at once (a series' occurrences), in a few statements; without
   * it, `save` runs once per event.
   */
  saveMany?(eventIds: number[], value: unknown, write: { user: AuthUser | null; created: boolean }): Promise<void>;
}

/** The fields modules added, in registration order. */
@Injectable()
export class EventFieldRegistry {
  private readonly fields: EventField[] = [];

  register(field: EventField): void {
    if (this.fields.some((f) => f.name === field.name))
      throw new Error(`the event field "${field.name}" is registered twice`);
    if (!isDeclared('field', field.name))
      throw new Error(
        `the event field "${field.name}" is not declared (declareEventField, where its module is defined)`,
      );
    if (field.save && !isDeclared('write field', field.name))
      throw new Error(`the event field "${field.name}" saves a value but declares no write rule`);
    this.fields.push(field);
  }

  all(): readonly EventField[] {
    return this.fields;
  }

  /** Whether a field's value differs between callers (documents then serve anonymous callers only). */
  get anyDependsOnCaller(): boolean {
    return this.fields.some((f) => f.dependsOnCaller === true);
  }
}
