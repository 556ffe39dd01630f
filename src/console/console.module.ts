import { Module } from '@nestjs/common';
import { ConsoleSite } from './console-site';

@Module({ providers: [ConsoleSite] })
export class ConsoleModule {}
