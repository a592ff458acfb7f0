import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Links a post to a term; `termOrder` keeps the order the client gave. */
@Entity('term_relationships')
export class TermRelationshipEntity {
  @PrimaryColumn({ name: 'post_id', type: 'integer' })
  postId!: number;

  @PrimaryColumn({ name: 'term_id', type: 'integer' })
  termId!: number;

  @Column({ name: 'term_order', type: 'integer', default: 0 })
  termOrder!: number;
}
