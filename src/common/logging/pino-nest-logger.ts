import type { LoggerService } from '@nestjs/common';
import type { FastifyBaseLogger } from 'fastify';

/** Sends Nest's own log lines to Fastify's pino logger, so everything is one JSON stream. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: FastifyBaseLogger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }

  error(message: unknown, stackOrContext?: string, context?: string): void {
    // Nest passes (message, stack) or (message, stack, context); a stack has line breaks.
    if (stackOrContext?.includes('\n')) {
      this.write('error', typeof message === 'object' && message !== null ? message : { msg: String(message), stack: stackOrContext }, context);
      return;
    }
    this.write('error', message, context ?? stackOrContext);
  }

  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }

  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }

  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }

  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, context?: string): void {
    if (message instanceof Error) {
      // Under `err`, so the error serializer applies (no bound values of database errors).
      this.pino[level]({ context, err: message }, message.name);
      return;
    }
    if (typeof message === 'object' && message !== null) {
      this.pino[level]({ context, ...message }, (message as { msg?: string }).msg);
      return;
    }
    this.pino[level]({ context }, String(message));
  }
}
