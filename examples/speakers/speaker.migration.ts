import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  stringColumn,
  createLinkedPostTables,
  dropLinkedPostTables,
  type LinkedPostTablesSpec,
} from '../../src/extend';

const TABLES: LinkedPostTablesSpec = {
  details: 'speaker_details',
  columns: [stringColumn('affiliation', 200, { default: "''" }), stringColumn('website', 2048, { default: "''" })],
  link: 'event_speakers',
  column: 'speaker_id',
};

/** `speaker_details` (companion of `cal_speaker`) and `event_speakers` (the ordered event links). */
export class CreateSpeakers1790000000000 implements MigrationInterface {
  name = 'CreateSpeakers1790000000000';
  up = (queryRunner: QueryRunner): Promise<void> => createLinkedPostTables(queryRunner, TABLES);
  down = (queryRunner: QueryRunner): Promise<void> => dropLinkedPostTables(queryRunner, TABLES);
}
