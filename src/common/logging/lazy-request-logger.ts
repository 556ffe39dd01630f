import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilent } from 'pino';

type LogArgs = [unknown, ...unknown[]];

/**
 * `request.log` without a pino child per request: Fastify's default builds one for every request
 * (binding its id), although at LOG_LEVEL=warn almost no request ever logs. This stands in for it
 * and creates the real child (same bindings, same options) the first time a line at an enabled
 * level is written, so a logged line is exactly what the default child would have written.
 */
export class LazyRequestLogger {
  private real: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return this.real?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger().level = level;
  }

  fatal(...args: LogArgs): void {
    this.write('fatal', args);
  }

  error(...args: LogArgs): void {
    this.write('error', args);
  }

  warn(...args: LogArgs): void {
    this.write('warn', args);
  }

  info(...args: LogArgs): void {
    this.write('info', args);
  }

  debug(...args: LogArgs): void {
    this.write('debug', args);
  }

  trace(...args: LogArgs): void {
    this.write('trace', args);
  }

  silent(): void {
    // Nothing is logged at "silent".
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger().child(bindings, options);
  }

  isLevelEnabled(level: LevelWithSilent): boolean {
    return ((this.real ?? this.parent) as FastifyBaseLogger & { isLevelEnabled(level: string): boolean }).isLevelEnabled(level);
  }

  private write(level: Level, args: LogArgs): void {
    if (this.real || this.isLevelEnabled(level)) {
      const logger = this.logger();
      Reflect.apply(logger[level], logger, args);
    }
  }

  private logger(): FastifyBaseLogger {
    return (this.real ??= this.parent.child(this.bindings, this.options));
  }
}

/** Fastify's `childLoggerFactory` option: a LazyRequestLogger per request. */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options);
}
