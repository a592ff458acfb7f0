import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../../database/datetime.transformer';

/** Which term here an imported term became (a TEC site's categories and tags), as `ImportedRecordEntity`. */
@Entity('imported_terms')
export class ImportedTermEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  /** The site: `tec:<site url>`. */
  @Column({ type: 'varchar', length: 191 })
  source!: string;

  /** The term there: `<taxonomy rest base>:<id>`. */
  @Column({ name: 'source_id', type: 'varchar', length: 191 })
  sourceId!: string;

  @Column({ name: 'term_id', type: 'integer' })
  termId!: number;

  @Column({ type: 'varchar', length: 64 })
  hash!: string;

  @DateTimeColumn('imported_utc')
  importedUtc!: string;
}
