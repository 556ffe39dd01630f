import { DynamicModule, Global, Module } from '@nestjs/common';
import { BuildInfo } from '../common/build-info';
import { AppConfig } from './app-config';

/** Makes the validated configuration injectable as `AppConfig` everywhere. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig): DynamicModule {
    return { module: ConfigModule, providers: [{ provide: AppConfig, useValue: config }, BuildInfo], exports: [AppConfig, BuildInfo] };
  }
}
