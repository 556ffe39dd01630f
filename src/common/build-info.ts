import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { resolveBuildVersion } from './version';

@Injectable()
export class BuildInfo {
  readonly version: string;

  constructor(config: AppConfig) {
    this.version = resolveBuildVersion(config.APP_VERSION);
  }
}
