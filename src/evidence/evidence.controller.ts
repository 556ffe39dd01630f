import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Input } from '../common/http/input.decorator';
import { ApiErrors, ApiPathParam } from '../common/openapi/api-docs.decorators';
import { EvidenceNameDto } from './dto/evidence-name.dto';
import { EVIDENCE_NAME_PATTERN } from './evidence-picture';
import { sendPicture } from './evidence-path';
import { EvidenceReader } from './evidence.reader';

/**
 * Evidence pictures, public (docs/bans-site.md, "Evidence pictures"): the bans site loads them
 * from its evidence host, which is this route.
 */
@ApiTags('bans-site')
@Controller('evidence')
export class EvidenceController {
  constructor(private readonly reader: EvidenceReader) {}

  @Get(':name')
  @ApiOperation({ summary: 'An evidence picture (PNG, JPEG, WebP or GIF), by its immutable name' })
  // The pattern documents the names the service makes; any other text is answered 404, not 400.
  @ApiPathParam('name', { type: 'string', pattern: EVIDENCE_NAME_PATTERN.source }, "A picture's name: 32 hex characters and the type's extension.")
  @ApiProduces('image/png', 'image/jpeg', 'image/webp', 'image/gif')
  @ApiResponse({ status: 200, description: 'The picture, as stored (metadata removed), cacheable for a year: a name never changes its content.' })
  @ApiResponse({ status: 304, description: 'Unchanged since the ETag given in If-None-Match.' })
  @ApiErrors([404, 'No picture of that name.'])
  async picture(@Input() input: EvidenceNameDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    sendPicture(input.name, await this.reader.content(input.name), request, reply);
  }
}
