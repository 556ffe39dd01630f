import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Input } from '../common/http/input.decorator';
import { ApiErrors, ApiInput } from '../common/openapi/api-docs.decorators';
import { CitiesSvgDto, CityShapeDto } from './dto/maps.dto';
import { MapsService } from './maps.service';

const notModified = { status: 304, description: 'Unchanged since the ETag given in If-None-Match.' };

/** Map files (not base responses); public, cacheable for a minute, with ETags (docs/console-and-maps.md, Maps). */
@ApiTags('maps')
@Controller()
export class MapsController {
  constructor(private readonly maps: MapsService) {}

  @Get('maps/cities.geojson')
  @ApiOperation({ summary: 'Registered cities as GeoJSON (block coordinates: x east, z south)' })
  @ApiProduces('application/geo+json')
  @ApiResponse({ status: 200, description: 'A FeatureCollection: one Polygon per city, properties id, name, nameKana, regionName, count, owner.' })
  @ApiResponse(notModified)
  @ApiErrors([429, 'Too many requests from this address.'], [503, 'The database is unreachable.'])
  async geojson(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    (await this.maps.geojson()).send(request, reply);
  }

  @Get('maps/cities.svg')
  @ApiOperation({ summary: 'Registered cities drawn as SVG (north up), optionally within a box' })
  @ApiInput(CitiesSvgDto, 'query')
  @ApiProduces('image/svg+xml')
  @ApiResponse({ status: 200, description: 'The picture: outlines labelled with names over a labelled coordinate grid.' })
  @ApiResponse(notModified)
  @ApiErrors([400, 'bbox is not four integers, or spans more than 100,000 blocks on a side.'])
  async svg(@Input() input: CitiesSvgDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    (await this.maps.svg(input.bbox)).send(request, reply);
  }

  @Get('cities/:id/shape.svg')
  @ApiOperation({ summary: "A registered city's outline as SVG, with its corner coordinates" })
  @ApiInput(CityShapeDto, 'query', { path: ['id'] })
  @ApiProduces('image/svg+xml')
  @ApiResponse({ status: 200, description: 'The picture.' })
  @ApiResponse(notModified)
  @ApiErrors([400, 'The id is not a positive integer.'], [404, 'No registered city with that id.'])
  async shape(@Input() input: CityShapeDto, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    (await this.maps.shape(Number(input.id))).send(request, reply);
  }
}
