import { Column, Entity, PrimaryGeneratedColumn, Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import {
  objectSchema,
  StringField,
  reason,
  defineReason,
  WithMigrations,
  cascadeToPost,
  idColumn,
  intColumn,
  stringColumn,
  EventChildResource,
  type EventChildResourceDefinition,
} from '../../src/extend';

/** A session of an event (tests only): it must lie inside the event; an event moved away reports it. */
@Entity('test_event_sessions')
export class SessionEntity {
  @PrimaryGeneratedColumn({ type: 'integer' }) id!: number;
  @Column({ name: 'event_id', type: 'integer' }) eventId!: number;
  @Column({ type: 'varchar', length: 100 }) title = '';
  @Column({ name: 'start_utc', type: 'varchar', length: 19 }) startUtc = '';
}

export class SessionDto {
  @StringField({ description: { en: 'title', de: 'Titel' }, maxLength: 100 }) title?: string;
  @StringField({ description: { en: 'start (UTC)', de: 'Beginn (UTC)' }, maxLength: 19 }) start?: string;
}

class CreateTestSessions1790200000000 implements MigrationInterface {
  name = 'CreateTestSessions1790200000000';
  async up(runner: QueryRunner): Promise<void> {
    const columns = [idColumn(), intColumn('event_id'), stringColumn('title', 100), stringColumn('start_utc', 19)];
    const foreignKeys = [cascadeToPost('fk_test_sessions_event', 'event_id')];
    await runner.createTable(new Table({ name: 'test_event_sessions', columns, foreignKeys }));
  }
  async down(runner: QueryRunner): Promise<void> {
    await runner.dropTable('test_event_sessions');
  }
}

const OUTSIDE = defineReason('test_session_outside', { en: 'must lie inside the event', de: 'muss darin liegen' });

export const SESSIONS: EventChildResourceDefinition<SessionEntity, SessionDto, SessionDto> = {
  path: 'sessions',
  noun: 'session',
  entity: SessionEntity,
  createDto: SessionDto,
  updateDto: SessionDto,
  create: (eventId) => Object.assign(new SessionEntity(), { eventId }),
  apply: (session, dto, event) => {
    session.title = dto.title ?? session.title;
    session.startUtc = dto.start ?? (session.startUtc || event.startUtc);
  },
  toObject: (s) => ({ id: s.id, event_id: s.eventId, title: s.title, start: s.startUtc }),
  parent: {
    misfit: (s, event) =>
      s.startUtc < event.startUtc || s.startUtc > event.endUtc ? { start: reason(OUTSIDE) } : null,
    whenEventMoves: 'report',
  },
  texts: {
    en: { a: 'a session', many: 'sessions' },
    de: { a: 'eine Sitzung', many: 'Sitzungen' },
    notFound: { en: 'No such session.', de: 'Keine solche Sitzung.' },
  },
  openApi: {
    schema: objectSchema({
      id: { type: 'integer' },
      event_id: { type: 'integer' },
      title: { type: 'string' },
      start: { type: 'string' },
    }),
    examples: { create: { title: 'Keynote' }, update: { title: 'Opening' } },
  },
};

@EventChildResource(SESSIONS)
@WithMigrations(CreateTestSessions1790200000000)
export class SessionsModule {}
