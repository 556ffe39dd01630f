import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { map, Observable } from 'rxjs';
import { BuildInfo } from '../build-info';

/**
 * Wraps every handler result in the base response: `{status: true, code, version, ...fields}`.
 * Handlers return only their endpoint fields.
 */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  private readonly statusByHandler = new WeakMap<object, number>();

  constructor(
    private readonly reflector: Reflector,
    private readonly build: BuildInfo,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') {
      return next.handle();
    }
    const code = this.statusFor(context);
    const version = this.build.version;
    return next.handle().pipe(map((fields: unknown) => ({ status: true, code, version, ...(fields as object | undefined) })));
  }

  /** The status Nest will send: @HttpCode, else 201 for POST, else 200; cached per handler. */
  private statusFor(context: ExecutionContext): number {
    const handler = context.getHandler();
    let status = this.statusByHandler.get(handler);
    if (status === undefined) {
      const method = context.switchToHttp().getRequest<FastifyRequest>().method;
      status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, handler) ?? (method === 'POST' ? HttpStatus.CREATED : HttpStatus.OK);
      this.statusByHandler.set(handler, status);
    }
    return status;
  }
}
