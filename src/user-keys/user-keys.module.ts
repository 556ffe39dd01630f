import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { GameServerUserKeysController } from './game-server-user-keys.controller';
import { UserKey } from './user-key.entity';
import { UserKeysService } from './user-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserKey])],
  controllers: [GameServerUserKeysController],
  providers: [UserKeysService],
  exports: [UserKeysService],
})
export class UserKeysModule {}
