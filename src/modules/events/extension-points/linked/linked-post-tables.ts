import { Column, Entity, PrimaryColumn } from 'typeorm';
import { type QueryRunner, Table, type TableColumnOptions } from 'typeorm';
import { cascadeToPost, intColumn } from '../../../../database/migrations/portable-columns';
import { createTableOnce } from '../../../../database/migrations/schema-steps';

/** What the link entity of a generated event link holds: the event, the linked record, the order. */
export interface GeneratedEventLink {
  eventId: number;
  linkedId: number;
  sortOrder: number;
}

/** The TypeORM entity of an ordered event link table (`event_id`, `<column>`, `sort_order`). */
export function eventLinkEntity(table: string, column: string): new () => GeneratedEventLink {
  class EventLinkEntity implements GeneratedEventLink {
    eventId!: number;
    linkedId!: number;
    sortOrder!: number;
  }
  PrimaryColumn({ name: 'event_id', type: 'integer' })(EventLinkEntity.prototype, 'eventId');
  PrimaryColumn({ name: column, type: 'integer' })(EventLinkEntity.prototype, 'linkedId');
  Column({ name: 'sort_order', type: 'integer', default: 0 })(EventLinkEntity.prototype, 'sortOrder');
  Object.defineProperty(EventLinkEntity, 'name', { value: `EventLink_${table}` });
  Entity(table)(EventLinkEntity);
  return EventLinkEntity;
}

export interface LinkedPostTablesSpec {
  /** Companion table and its own columns (beside `post_id`). */
  details: string;
  columns: TableColumnOptions[];
  /** Event link table and its column naming the linked record. */
  link: string;
  column: string;
}

/** Migration step: a linked post type's companion table and its ordered event link table, portable. */
export async function createLinkedPostTables(queryRunner: QueryRunner, spec: LinkedPostTablesSpec): Promise<void> {
  await createTableOnce(
    queryRunner,
    new Table({
      name: spec.details,
      columns: [intColumn('post_id', { isPrimary: true }), ...spec.columns],
      foreignKeys: [cascadeToPost(`FK_${spec.details}_post`, 'post_id')],
    }),
  );
  await createTableOnce(
    queryRunner,
    new Table({
      name: spec.link,
      columns: [
        intColumn('event_id', { isPrimary: true }),
        intColumn(spec.column, { isPrimary: true }),
        intColumn('sort_order', { default: 0 }),
      ],
      indices: [{ name: `IDX_${spec.link}_${spec.column}_event`, columnNames: [spec.column, 'event_id'] }],
      foreignKeys: [
        cascadeToPost(`FK_${spec.link}_event`, 'event_id'),
        cascadeToPost(`FK_${spec.link}_${spec.column}`, spec.column),
      ],
    }),
  );
}

export async function dropLinkedPostTables(queryRunner: QueryRunner, spec: LinkedPostTablesSpec): Promise<void> {
  await queryRunner.dropTable(spec.link);
  await queryRunner.dropTable(spec.details);
}
