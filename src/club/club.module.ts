import { Module } from '@nestjs/common';
import { CaptchaModule } from '../captcha/captcha.module';
import { PlayersModule } from '../players/players.module';
import { SecurityModule } from '../security/security.module';
import { UserKeysModule } from '../user-keys/user-keys.module';
import { AccountRecoveryService } from './account-recovery.service';
import { ClubAccountsService } from './club-accounts.service';
import { ClubTokensModule } from './club-tokens.module';
import { ClubController } from './club.controller';
import { PasswordsService } from './passwords.service';

@Module({
  imports: [CaptchaModule, ClubTokensModule, PlayersModule, SecurityModule, UserKeysModule],
  controllers: [ClubController],
  providers: [ClubAccountsService, AccountRecoveryService, PasswordsService],
  exports: [ClubAccountsService, ClubTokensModule],
})
export class ClubModule {}
