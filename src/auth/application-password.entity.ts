import { Column, Entity, PrimaryColumn } from 'typeorm';
import { DateTimeColumn } from '../database/datetime.transformer';

/** One application password of a user; only its scrypt hash is stored. */
@Entity('application_passwords')
export class ApplicationPasswordEntity {
  /** Public identifier (a UUID), used to list and revoke. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ name: 'user_id', type: 'integer' })
  userId!: number;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash!: string;

  @DateTimeColumn('created_utc')
  createdUtc!: string;

  @DateTimeColumn('last_used_utc', { nullable: true })
  lastUsedUtc!: string | null;

  @Column({ name: 'last_ip', type: 'varchar', length: 45, nullable: true })
  lastIp!: string | null;
}
