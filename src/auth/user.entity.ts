import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DateTimeColumn } from '../database/datetime.transformer';
import type { Role } from './roles';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 60 })
  login!: string;

  @Column({ name: 'display_name', type: 'varchar', length: 250 })
  displayName!: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  email!: string | null;

  @Column({ type: 'varchar', length: 20 })
  role!: Role;

  @DateTimeColumn('registered_utc')
  registeredUtc!: string;
}
