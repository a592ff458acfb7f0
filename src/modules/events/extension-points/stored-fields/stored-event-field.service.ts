import { In } from 'typeorm';
import type { SqlCondition } from '../../../../core/posts/post-visibility';
import type { DatabaseContext } from '../../../../database/database-context';
import type { EventField } from '../links/event-field';
import type { EventListFilter } from '../links/event-list-filter';
import { EventFieldValueEntity } from './event-field-value.entity';
import { storedText, type StoredEventFieldDefinition, type StoredValue } from './stored-event-field';

/** A stored field's values, read for a page in one query and written in the event write's transaction. */
export class StoredEventField implements EventField<StoredValue | null>, EventListFilter {
  readonly empty = null;
  readonly params: readonly string[];

  constructor(
    private readonly definition: StoredEventFieldDefinition,
    private readonly db: DatabaseContext,
  ) {
    this.params = (definition.filters ?? []).map((f) => f.param);
  }

  get name(): string {
    return this.definition.name;
  }

  async valuesOf(eventIds: number[]): Promise<Map<number, StoredValue | null>> {
    if (eventIds.length === 0) return new Map();
    const rows = await this.db.manager.find(EventFieldValueEntity, {
      where: { name: this.definition.name, postId: In(eventIds) },
    });
    return new Map(rows.map((row) => [row.postId, this.valueOf(row)]));
  }

  save(eventId: number, value: unknown): Promise<void> {
    return this.saveMany([eventId], value);
  }

  /** `null` (and `""`) clear the value: the event then shows `null`, as one that never had it. */
  async saveMany(eventIds: number[], value: unknown): Promise<void> {
    const name = this.definition.name;
    if (value === null || value === '') {
      await this.db.manager.delete(EventFieldValueEntity, { postId: In(eventIds), name });
      return;
    }
    const text = this.definition.type === 'text';
    const intValue = text ? null : value === true ? 1 : value === false ? 0 : (value as number);
    const textValue = text ? storedText(value) : null;
    const rows = eventIds.map((postId) => ({ postId, name, intValue, textValue }));
    await this.db.upsert(EventFieldValueEntity, rows, ['int_value', 'text_value'], ['post_id', 'name']);
  }

  condition(query: Record<string, unknown>): SqlCondition | undefined {
    const parts: string[] = [];
    // The field's name and the filter's values under prefixes of their own: a filter may be named as its field.
    const params: Record<string, unknown> = { [`sfn_${this.definition.name}`]: this.definition.name };
    for (const { param, compare } of this.definition.filters ?? []) {
      const given = query[param];
      if (given === undefined) continue;
      const column = this.definition.type === 'text' ? 'text_value' : 'int_value';
      parts.push(
        `EXISTS (SELECT 1 FROM event_field_values sf WHERE sf.post_id = p.id AND sf.name = :sfn_${this.definition.name} AND sf.${column} ${compare} :sfv_${param})`,
      );
      params[`sfv_${param}`] = typeof given === 'boolean' ? (given ? 1 : 0) : given;
    }
    return parts.length === 0 ? undefined : { sql: parts.join(' AND '), params };
  }

  private valueOf(row: EventFieldValueEntity): StoredValue | null {
    if (this.definition.type === 'text') return row.textValue;
    if (row.intValue === null) return null;
    return this.definition.type === 'boolean' ? Number(row.intValue) === 1 : Number(row.intValue);
  }
}
