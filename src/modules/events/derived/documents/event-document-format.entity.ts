import { Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../../../../database/datetime.transformer';

/** A build identity that stores document bodies, and when an instance of it last said it runs. */
@Entity('event_document_formats')
export class EventDocumentFormatEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  format!: string;

  @DateTimeColumn('seen_utc')
  seenUtc!: string;
}
