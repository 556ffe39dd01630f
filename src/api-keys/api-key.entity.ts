import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { utcDate } from '../database/transformers';

export const API_SCOPES = ['operator', 'game-server', 'chat-bot'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

@Entity('api_keys')
export class ApiKey {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id: number;

  @Column({ type: 'varchar', length: 64 })
  name: string;

  /** The name in lower case, unique: names are unique case-insensitively on every database. */
  @Column({ name: 'name_key', type: 'varchar', length: 64, select: false })
  nameKey: string;

  /** sha256 of the key; the key itself is shown once at creation and never stored. */
  @Column({ name: 'key_hash', type: 'varchar', length: 64, select: false })
  keyHash: string;

  @Column({
    type: 'varchar',
    length: 255,
    transformer: { to: (scopes: ApiScope[]) => scopes.join(','), from: (value: string) => value.split(',').filter(Boolean) as ApiScope[] },
  })
  scopes: ApiScope[];

  @Column({ name: 'created_at', type: 'datetime', precision: 3, transformer: utcDate })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'datetime', precision: 3, nullable: true, transformer: utcDate })
  lastUsedAt: Date | null;
}
