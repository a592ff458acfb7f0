import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The read model of one event (docs/architecture.md, "Event documents"): its public representation as
 * stored JSON with the caller's URLs and the terms' counts left as placeholders. Every event has a row from
 * its creation; the bodies are empty until a read or a write fills them. `generation` moves with every
 * change that may alter the representation, in the changing transaction: a fill stores its body only if
 * the generation it started from is still there, so a body built from data read before a change never
 * lands after it.
 */
@Entity('event_documents')
export class EventDocumentEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @Column({ type: 'integer', default: 0 })
  generation!: number;

  /** Which build of the service wrote the bodies: another's are not used (`documentFormat`). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  format!: string | null;

  /** The event object as lists show it. */
  @Column({ name: 'object_json', type: 'text', nullable: true })
  objectJson!: string | null;

  /** Its schema.org description, which single reads add as `json_ld`. */
  @Column({ name: 'json_ld', type: 'text', nullable: true })
  jsonLd!: string | null;

  /** Until when (UTC) the bodies hold, when a module field turns with the clock; null: until a write. */
  @Column({ name: 'valid_until_utc', type: 'varchar', length: 19, nullable: true })
  validUntilUtc!: string | null;
}
