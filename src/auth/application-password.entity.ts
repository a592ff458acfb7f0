import { Column, Entity, PrimaryColumn } from 'typeorm';
import { sqlDateTime } from '../database/datetime.transformer';

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

  @Column({ name: 'created_utc', type: 'datetime', transformer: sqlDateTime })
  createdUtc!: string;

  @Column({ name: 'last_used_utc', type: 'datetime', nullable: true, transformer: sqlDateTime })
  lastUsedUtc!: string | null;

  @Column({ name: 'last_ip', type: 'varchar', length: 45, nullable: true })
  lastIp!: string | null;
}
