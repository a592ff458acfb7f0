import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The bodies of one event's document as one build identity (`format`) made them, at one generation of the
 * event (`event_documents.generation`): served only while that generation is current. Each build keeps its
 * own, so two builds on one database never overwrite each other's on every read.
 */
@Entity('event_document_bodies')
export class EventDocumentBodyEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  format!: string;

  @Column({ type: 'integer' })
  generation!: number;

  /** The event object as lists show it; `''`: found not to be the same for every caller. */
  @Column({ name: 'object_json', type: 'text' })
  objectJson!: string;

  /** Its schema.org description, which single reads add as `json_ld`. */
  @Column({ name: 'json_ld', type: 'text' })
  jsonLd!: string;

  /** Until when (UTC) the bodies hold, when a module field turns with the clock; null: until a write. */
  @Column({ name: 'valid_until_utc', type: 'varchar', length: 19, nullable: true })
  validUntilUtc!: string | null;
}
