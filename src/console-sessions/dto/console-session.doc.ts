import { ApiProperty } from '@nestjs/swagger';

export class ConsoleSessionDoc {
  @ApiProperty({ enum: ['operator', 'club-admin'], description: 'Who signed in: an operator API key or a club admin.' })
  kind: 'operator' | 'club-admin';

  @ApiProperty({ description: "The API key's name, or the admin's game id (their uuid when it is not known).", example: 'console' })
  name: string;

  @ApiProperty({ type: String, nullable: true, description: "The admin's player uuid; null for an operator.", example: null })
  uuid: string | null;

  @ApiProperty({ description: 'Send it as the X-CSRF-Token header on every call that changes anything (POST, PUT, PATCH, DELETE).', example: '3f1c…' })
  csrfToken: string;

  @ApiProperty({ description: 'The latest the session lasts (ISO 8601, UTC): sign-in plus CONSOLE_SESSION_MAX_SECONDS, or the admin token\'s end if sooner.', example: '2026-11-22T15:04:05.000Z' })
  expiresAt: string;

  @ApiProperty({ description: 'The session ends after this many seconds without a request (CONSOLE_SESSION_IDLE_SECONDS).', example: 1800 })
  idleTimeoutSeconds: number;
}

export class ConsoleSessionResponseDoc {
  @ApiProperty({ type: ConsoleSessionDoc })
  data: ConsoleSessionDoc;
}

export class NullableConsoleSessionResponseDoc {
  @ApiProperty({ type: ConsoleSessionDoc, nullable: true, description: 'null when not signed in.' })
  data: ConsoleSessionDoc | null;
}
