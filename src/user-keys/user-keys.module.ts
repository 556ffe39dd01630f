import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlayersModule } from '../players/players.module';
import { GameServerUserKeysController } from './game-server-user-keys.controller';
import { UserKey } from './user-key.entity';
import { UserKeysRepository } from './user-keys.repository';
import { UserKeysService } from './user-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserKey]), PlayersModule],
  controllers: [GameServerUserKeysController],
  providers: [UserKeysRepository, UserKeysService],
  exports: [UserKeysService],
})
export class UserKeysModule {}
