import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiErrors } from '../../common/openapi/api-docs.decorators';
import { WebMapService } from './web-map.service';

const notModified = { status: 304, description: 'Unchanged since the ETag given in If-None-Match.' };

/** The cities on the game server's web map (docs/web-map.md): public files, cacheable for a minute, with ETags, as the other maps. */
@ApiTags('maps')
@Controller('maps')
export class WebMapController {
  constructor(private readonly webMap: WebMapService) {}

  @Get('bluemap/markers.json')
  @ApiOperation({ summary: 'Registered cities as a BlueMap marker file (one shape marker per city)' })
  @ApiProduces('application/json')
  @ApiResponse({ status: 200, description: 'BlueMap 5 marker sets by id: one set, "community-cities", with a shape marker per city (outline, name, popup HTML).' })
  @ApiResponse(notModified)
  @ApiErrors([429, 'Too many requests from this address.'], [503, 'The database is unreachable.'])
  async blueMapMarkers(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    (await this.webMap.blueMapMarkers()).send(request, reply);
  }

  @Get('bluemap/cities.js')
  @ApiOperation({ summary: "Script for BlueMap's web app (webapp.conf scripts) that shows the cities and keeps them current" })
  @ApiProduces('text/javascript')
  @ApiResponse({ status: 200, description: 'The script: reads markers.json next to its own address every 30 seconds.' })
  @ApiResponse(notModified)
  @ApiErrors([429, 'Too many requests from this address.'])
  blueMapScript(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    this.webMap.blueMapScript().send(request, reply);
  }

  @Get('pl3xmap/cities.json')
  @ApiOperation({ summary: 'Registered cities as a Pl3xMap custom layer file (one polygon per city)' })
  @ApiProduces('application/json')
  @ApiResponse({ status: 200, description: 'A Pl3xMap 3 layer: key, label, settings and a "poly" marker per city, its name as tooltip.' })
  @ApiResponse(notModified)
  @ApiErrors([429, 'Too many requests from this address.'], [503, 'The database is unreachable.'])
  async pl3xMapLayer(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    (await this.webMap.pl3xMapLayer()).send(request, reply);
  }
}
