import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiError } from '../common/errors/api-error';
import { msg } from '../common/errors/messages';
import { Input } from '../common/http/input.decorator';
import { PLAYER_IDENTIFIER_PATTERN, UUID_PATTERN } from '../common/identifiers';
import { ApiEnvelope, ApiErrors, ApiInput, ApiPathParam } from '../common/openapi/api-docs.decorators';
import type { AchievementView } from '../players/players.repository';
import { AchievementsService } from './achievements.service';
import { PlayerPathDto } from './dto/game-server.dto';
import { AchievementsQueryDto, FindUserDto } from './dto/user-lookup.dto';
import type { UserView } from './user.view';
import { UsersService } from './users.service';

class UserDoc {
  @ApiProperty({ description: 'Game UUID with hyphens.', example: '069a79f4-44e9-4726-a5be-fca90e38aaf5' })
  uuid: string;

  @ApiProperty({ type: String, nullable: true, description: 'Game id of the latest login.', example: 'Notch' })
  mcid: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Linked chat id.', example: null })
  chatid: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Permission group of the latest login.', example: 'default' })
  permission: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'First login (ISO 8601, UTC).', example: '2018-03-20T01:00:00.000Z' })
  firstLogin: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Latest login (ISO 8601, UTC).', example: '2026-11-22T03:04:05.000Z' })
  lastLogin: string | null;
}

class UserResponseDoc {
  @ApiProperty({ type: UserDoc, description: 'The user. mcid and permission come from the latest login.' })
  data: UserView;
}

class AchievementDoc {
  @ApiProperty({ example: 1 })
  id: number;

  @ApiProperty({ example: 'First city' })
  title: string;

  @ApiProperty({ example: 'Found your first city.' })
  description: string;

  @ApiProperty({ example: false })
  hidden: boolean;

  @ApiProperty({ description: 'When it was unlocked (ISO 8601, UTC).', example: '2026-11-22T03:04:05.000Z' })
  unlockedAt: string;
}

class AchievementsResponseDoc {
  @ApiProperty({ type: [AchievementDoc], description: 'Unlocked achievements, oldest first (ties by id).' })
  data: AchievementView[];

  @ApiProperty({ description: 'How many the player unlocked.', example: 1 })
  unlocked: number;

  @ApiProperty({ description: 'How many achievements are defined.', example: 40 })
  total: number;
}

const lookupErrors: Array<[number, string]> = [
  [400, 'No identifier, or one that matches no identifier format.'],
  [404, 'No such player (or only login records before DATA_CUTOFF).'],
];

// Fixed routes (`achievements`, and `banlist` in the ban-list feature) win over `:identifier` in the router.
@ApiTags('users')
@Controller('users')
export class UsersController {
  constructor(
    private readonly users: UsersService,
    private readonly achievements: AchievementsService,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Get a user by uuid, chatid or mcid (that priority)' })
  @ApiInput(FindUserDto, 'query')
  @ApiEnvelope(200, 'The user.', UserResponseDoc)
  @ApiErrors(...lookupErrors)
  async find(@Input() input: FindUserDto): Promise<{ data: UserView }> {
    return { data: await this.users.find(input) };
  }

  @Get('achievements')
  @ApiOperation({ summary: 'Get unlocked achievements (uuid as a query parameter)' })
  @ApiInput(AchievementsQueryDto, 'query')
  @ApiEnvelope(200, 'The unlocked achievements.', AchievementsResponseDoc)
  @ApiErrors(...lookupErrors)
  achievementsByQuery(@Input() input: AchievementsQueryDto): Promise<AchievementsResponseDoc> {
    return this.achievements.unlockedBy(requireUuid(input.uuid));
  }

  @Get('achievements/:uuid')
  @ApiOperation({ summary: 'Get the unlocked achievements of a player' })
  @ApiPathParam('uuid', PlayerPathDto, 'Game UUID with hyphens (a uuid query parameter wins).')
  @ApiEnvelope(200, 'The unlocked achievements.', AchievementsResponseDoc)
  @ApiErrors(...lookupErrors)
  achievementsByPath(@Input() input: AchievementsQueryDto): Promise<AchievementsResponseDoc> {
    return this.achievements.unlockedBy(requireUuid(input.uuid));
  }

  @Get(':identifier')
  @ApiOperation({ summary: 'Get a user by uuid, chat id (17-20 digits) or game id in the path', description: 'A uuid, chatid or mcid query parameter wins over the path.' })
  @ApiPathParam('identifier', { type: 'string', pattern: PLAYER_IDENTIFIER_PATTERN.source }, 'Game UUID, chat id (17-20 digits) or game id.')
  @ApiInput(FindUserDto, 'query')
  @ApiEnvelope(200, 'The user.', UserResponseDoc)
  @ApiErrors(...lookupErrors)
  async findByPath(@Input() input: FindUserDto): Promise<{ data: UserView }> {
    return { data: await this.users.find(input) };
  }
}

function requireUuid(uuid: string | undefined): string {
  if (uuid === undefined) {
    throw ApiError.invalidField('uuid', msg('validation.required', { field: 'uuid' }));
  }
  if (!UUID_PATTERN.test(uuid)) {
    throw ApiError.invalidField('uuid', msg('validation.uuid', { field: 'uuid' }));
  }
  return uuid;
}
