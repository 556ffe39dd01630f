import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { withDeadline } from '../common/timing/deadline';
import { AppConfig } from '../config/app-config';

/** Readiness of the database: one round trip through the pool, within DATABASE_PING_TIMEOUT_MS. */
@Injectable()
export class DatabaseHealth {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /**
   * Resolves when the database answers; rejects with the driver's error, or a DeadlineExceededError
   * when it does not answer in time (a stalled server: docs/reliability.md, "The database").
   */
  async ping(): Promise<void> {
    await withDeadline(this.config.DATABASE_PING_TIMEOUT_MS, () => this.dataSource.query('SELECT 1'), { what: 'the database ping' });
  }
}
