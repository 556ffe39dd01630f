import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { DataVersions } from './data-versions';
import { SqlReader } from './sql-reader';
import { UnitOfWork } from './unit-of-work';

@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config),
        // Report a dead database at once instead of retrying for half a minute at start.
        retryAttempts: 0,
      }),
    }),
  ],
  providers: [UnitOfWork, DataVersions, SqlReader],
  exports: [UnitOfWork, DataVersions, SqlReader],
})
export class DatabaseModule {}
