import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One term of one taxonomy (an event category, a tag, …). Categories nest through `parentId`. */
@Entity('terms')
export class TermEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 32 })
  taxonomy!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 200 })
  slug!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ name: 'parent_id', type: 'integer', nullable: true })
  parentId!: number | null;

  /** Published posts carrying this term; kept exact inside every write transaction. */
  @Column({ type: 'integer', default: 0 })
  count!: number;
}
