import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ClubAccount } from './club-account.entity';
import { ClubAccountsRepository } from './club-accounts.repository';
import { ClubToken } from './club-token.entity';
import { ClubTokensService } from './club-tokens.service';
import { TokensRepository } from './tokens.repository';

/**
 * Token issue and validation, shared by the club endpoints and the global auth guard; with the
 * accounts' repository, the one writer of `club_accounts` (issuing a token sets the account's current one).
 */
@Module({
  imports: [TypeOrmModule.forFeature([ClubAccount, ClubToken])],
  providers: [ClubAccountsRepository, TokensRepository, ClubTokensService],
  exports: [ClubAccountsRepository, TokensRepository, ClubTokensService, TypeOrmModule],
})
export class ClubTokensModule {}
