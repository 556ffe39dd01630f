import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClubAccount } from './club-account.entity';
import { ClubToken } from './club-token.entity';
import { ClubTokensService } from './club-tokens.service';
import { TokensRepository } from './tokens.repository';

/** Token issue and validation, shared by the club endpoints and the global auth guard. */
@Module({
  imports: [TypeOrmModule.forFeature([ClubAccount, ClubToken])],
  providers: [TokensRepository, ClubTokensService],
  exports: [TokensRepository, ClubTokensService, TypeOrmModule],
})
export class ClubTokensModule {}
