import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PlayersModule } from '../players/players.module';
import { ChatAccount } from './chat-account.entity';
import { ChatAccountsImport } from './chat-accounts.import';
import { ChatAccountsReader } from './chat-accounts.reader';
import { ChatAccountsRepository } from './chat-accounts.repository';
import { ChatAccountsService } from './chat-accounts.service';
import { ChatBotController } from './chat-bot.controller';
import { ChatIngestReceipt } from './chat-ingest-receipt.entity';
import { ChatSecondAccount } from './chat-second-account.entity';
import { PlayerProfileLinks } from './player-profile-links.entity';
import { ProfileLinksController } from './profile-links.controller';

/** Chat accounts, second accounts and profile links: the chat bot's routes, the account page's links, the players site's reads. */
@Module({
  imports: [PlayersModule, TypeOrmModule.forFeature([ChatAccount, ChatSecondAccount, PlayerProfileLinks, ChatIngestReceipt])],
  controllers: [ChatBotController, ProfileLinksController],
  providers: [ChatAccountsRepository, ChatAccountsService, ChatAccountsReader, ChatAccountsImport],
  exports: [ChatAccountsReader, ChatAccountsImport],
})
export class ChatAccountsModule {}
