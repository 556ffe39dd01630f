import { Column, Entity, PrimaryColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

/** An achievement defined by the game server's achievement plugin; the id is the plugin's. */
@Entity('achievements')
export class Achievement {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 255 })
  title: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'boolean' })
  hidden: boolean;

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'datetime', precision: 3, transformer: utcDate })
  updatedAt: Date;
}
