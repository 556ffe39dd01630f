import { Global, Module } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { TelemetryModule } from '../common/telemetry/telemetry.module';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { DataVersions } from './data-versions';
import { runMigrationsLocked } from './migration-runner';
import { mysqlDeadlineOptions } from './mysql-deadlines';
import { SqlReader } from './sql-reader';
import { UnitOfWork } from './unit-of-work';

@Global()
@Module({
  imports: [
    TelemetryModule,
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const options = buildDataSourceOptions(config);
        return {
          ...options,
          // MySQL: deadlines on every statement, the pool's wait and row locks (mysql-deadlines.ts).
          ...(options.type === 'mysql' ? mysqlDeadlineOptions(config) : {}),
          // Report a dead database at once instead of retrying for half a minute at start.
          retryAttempts: 0,
        };
      },
      // Connect, then apply pending migrations under the database-wide lock (never TypeORM's
      // unlocked run at initialise).
      dataSourceFactory: async (options) => {
        const { migrationsRun, ...rest } = options as DataSourceOptions;
        const dataSource = await new DataSource({ ...rest, migrationsRun: false }).initialize();
        if (migrationsRun) {
          try {
            await runMigrationsLocked(dataSource);
          } catch (error) {
            await dataSource.destroy();
            throw error;
          }
        }
        return dataSource;
      },
    }),
  ],
  providers: [UnitOfWork, DataVersions, { provide: SqlReader, inject: [getDataSourceToken()], useFactory: (dataSource: DataSource) => SqlReader.open(dataSource) }],
  exports: [UnitOfWork, DataVersions, SqlReader],
})
export class DatabaseModule {}
