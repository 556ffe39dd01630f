import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

/** Readiness of the database: one round trip through the pool. */
@Injectable()
export class DatabaseHealth {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Resolves when the database answers; rejects with the driver's error otherwise. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }
}
