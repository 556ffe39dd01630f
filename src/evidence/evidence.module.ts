import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { EvidenceFileRow } from './evidence-file.entity';
import { EvidenceController } from './evidence.controller';
import { EvidenceReader } from './evidence.reader';
import { EvidenceRepository } from './evidence.repository';
import { EvidenceService } from './evidence.service';

/**
 * Evidence pictures attached to records (docs/bans-site.md, "Evidence pictures"): the public
 * `GET /evidence/{name}`, the service the operator routes store and remove through, the reader
 * the bans site and the moderation API list with.
 */
@Module({
  imports: [TypeOrmModule.forFeature([EvidenceFileRow])],
  controllers: [EvidenceController],
  providers: [EvidenceRepository, EvidenceService, EvidenceReader],
  exports: [EvidenceService, EvidenceReader],
})
export class EvidenceModule {}
