import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClubTokensModule } from '../club/club-tokens.module';
import { GameServerUserKeysController } from './game-server-user-keys.controller';
import { UserKey } from './user-key.entity';
import { UserKeysService } from './user-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([UserKey]), ClubTokensModule],
  controllers: [GameServerUserKeysController],
  providers: [UserKeysService],
  exports: [UserKeysService],
})
export class UserKeysModule {}
