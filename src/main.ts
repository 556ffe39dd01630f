import 'reflect-metadata';
import { Logger as NestLogger } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from './app.factory';
import { serializeError } from './common/logging/error-serializer';
import { missingDatabaseMessage } from './database/missing-database';
import { ConfigError, loadConfig } from './config/app-config';
import { loadEnvFile } from './config/env-file';

/** In-flight requests get this long to finish after SIGTERM before the process gives up (exit 1). */
const SHUTDOWN_DEADLINE_MS = 25_000;

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish, then run Nest's
 * shutdown hooks (scheduled jobs stopped, Redis and the database closed) and exit 0.
 * Not Nest's enableShutdownHooks(): it re-raises the signal after closing, so the process would
 * end by signal instead of with status 0.
 */
function drainOnSignals(app: NestFastifyApplication): void {
  const logger = new NestLogger('Shutdown');
  let closing = false;
  const shutdown = (signal: NodeJS.Signals): void => {
    if (closing) {
      return;
    }
    closing = true;
    logger.log(`${signal} received: draining in-flight requests`);
    const deadline = setTimeout(() => {
      logger.error(`In-flight requests did not finish within ${SHUTDOWN_DEADLINE_MS} ms; exiting anyway.`);
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS);
    deadline.unref();
    // Fastify closes idle keep-alive connections once, when closing starts; a connection whose
    // request finishes later would otherwise hold the close open until its keep-alive timeout.
    const server = app.getHttpServer();
    const sweeper = setInterval(() => server.closeIdleConnections(), 100);
    sweeper.unref();
    app.close().then(
      () => {
        logger.log('Shutdown complete: HTTP server, scheduled jobs and database closed.');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ msg: 'Shutdown failed', err: error });
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

/** Before the app's own logger exists: one JSON line on stderr, like every other log line. */
function startLogger(): Logger {
  return pino({ base: { pid: process.pid }, serializers: { err: serializeError } }, pino.destination({ fd: 2, sync: true }));
}

async function main(): Promise<void> {
  let config;
  try {
    loadEnvFile();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      startLogger().fatal(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  drainOnSignals(app);
  await app.listen({ port: config.PORT, host: config.listenHost });
}

main().catch((error: unknown) => {
  // The message as the serializer scrubbed it: a database error's message may quote values. A
  // missing MariaDB database is named from DATABASE_URL (its name is masked in the message).
  const missing = missingDatabaseMessage(error, process.env.DATABASE_URL ?? '');
  startLogger().fatal({ err: error }, `The service failed to start: ${missing ?? serializeError(error).message}`);
  process.exit(1);
});
